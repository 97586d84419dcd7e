/**
 * The agent's share of a floating address: it writes keepalived's
 * configuration (keepalived-config.ts) into `<agent dir>/keepalived/`, runs
 * keepalived there (VRRP only, in the foreground, logging to
 * `keepalived.log`) and stops it with the agent. The host whose keepalived
 * is master holds the address; every agent's endpoint server listens on it
 * anyway (with `net.ipv4.ip_nonlocal_bind=1`, or by retrying its bind), so
 * whoever holds it serves it.
 *
 * keepalived's VRRP child outlives its parent killed with SIGKILL: every
 * keepalived working in this directory (a crashed agent's too) is stopped
 * before one is started, and on stop. One that exits by itself is started
 * again after a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { keepalivedProcessesUnder, stopProcesses } from '../process-utils';
import { keepalivedConfig, takeoverSeconds, type FloatingAddressSpec } from './keepalived-config';

export interface FloatingAddressDeps {
  spec: FloatingAddressSpec;
  /** The agent's data directory; keepalived works in `<dataDir>/keepalived`. */
  dataDir: string;
  /** The agent's name (keepalived's router_id). */
  name: string;
  /** The keepalived binary (default: `keepalived` on PATH). */
  keepalived?: string;
  log: Logger;
  /** Is the address on one of this host's interfaces now? (default: os.networkInterfaces) */
  holdsNow?: (address: string) => boolean;
}

const STOP_GRACE_MS = 2000;
const RESTART_DELAY_MS = 1000;

const onThisHost = (address: string): boolean => Object.values(os.networkInterfaces()).some((list) => list?.some((a) => a.address === address));

export class FloatingAddress {
  private readonly dir: string;
  private child: ChildProcess | null = null;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(private readonly d: FloatingAddressDeps) {
    this.dir = path.join(d.dataDir, 'keepalived');
  }

  get address(): string {
    return this.d.spec.address;
  }

  /** Does this host hold the address now? */
  holds(): boolean {
    return (this.d.holdsNow ?? onThisHost)(this.d.spec.address);
  }

  /** Writes the configuration and starts keepalived (after stopping one a crashed agent left here). */
  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const config = path.join(this.dir, 'keepalived.conf');
    writeFileSync(config, keepalivedConfig(this.d.spec, this.d.name));
    const stale = keepalivedProcessesUnder(this.dir).map((p) => p.pid);
    if (stale.length) {
      this.d.log.warn({ pids: stale }, 'stopping the keepalived a previous agent left running');
      await stopProcesses(stale, STOP_GRACE_MS);
    }
    this.d.log.info({ address: this.d.spec.address, priority: this.d.spec.priority, peers: this.d.spec.peers, takeoverSeconds: takeoverSeconds(this.d.spec) },
      'starting keepalived for the floating endpoint address');
    await this.spawn(config);
  }

  /** Stops keepalived (it gives the address up with a priority-0 advert: a backup takes it at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const pids = new Set(keepalivedProcessesUnder(this.dir).map((p) => p.pid));
    if (this.child?.pid && this.child.exitCode === null) pids.add(this.child.pid);
    const killed = await stopProcesses(pids, STOP_GRACE_MS);
    if (killed.length) this.d.log.warn({ pids: killed }, 'keepalived did not stop on SIGTERM in time (killed)');
  }

  /** Last resort, synchronous: SIGKILL to every keepalived working here. */
  killAll(): void {
    this.stopped = true;
    for (const p of keepalivedProcessesUnder(this.dir)) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  }

  private spawn(config: string): Promise<void> {
    const logFd = openSync(path.join(this.dir, 'keepalived.log'), 'a');
    const child = spawn(this.d.keepalived ?? 'keepalived', [
      '--dont-fork', '--log-console', '--no-syslog', '--vrrp', '--use-file', config,
      '--pid', path.join(this.dir, 'keepalived.pid'), '--vrrp_pid', path.join(this.dir, 'vrrp.pid'),
    ], { cwd: this.dir, stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    this.child = child;
    return new Promise((resolve, reject) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        this.child = null;
        reject(new Error(err.code === 'ENOENT'
          ? 'keepalived is not installed (a floating endpoint address needs it): apt-get install keepalived'
          : `keepalived could not start: ${err.message}`));
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        if (this.stopped) return;
        this.d.log.error({ code, signal, log: path.join(this.dir, 'keepalived.log') }, `keepalived exited; starting it again in ${RESTART_DELAY_MS} ms`);
        this.restartTimer = setTimeout(() => {
          if (this.stopped) return;
          void (async () => {
            await stopProcesses(keepalivedProcessesUnder(this.dir).map((p) => p.pid), STOP_GRACE_MS);
            if (!this.stopped) await this.spawn(config).catch((err: Error) => this.d.log.error({ err: err.message }, 'keepalived could not start again'));
          })();
        }, RESTART_DELAY_MS);
      });
    });
  }
}
