import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { renderRedisConfig } from '@strata/engine';
import { SPARE_USERS } from '@strata/engine/redis-admin';
import { describeProcess, isAlive, isRedisOnPort, portHoldersIfListening, readPid, stopProcesses, waitForRedis, worksUnder } from './process-utils';

export interface Spare {
  port: number;
  pid: number;
  dir: string;
  password: string;
  startedAt: number;
}

/** A Redis primary cannot reach cluster_state ok until ~2 s after its process started (CLUSTER_WRITABLE_DELAY). */
export const WARM_AFTER_MS = 2500;
/** A port another process listens on is tried again for a spare after this long. */
const TAKEN_PORT_RETRY_MS = 60_000;
const OWN_PORT_RETRY_MS = 5000;
/** After a spare's port is handed over: how long no new spare may start on it. */
const PORT_HANDED_OVER_MS = 60_000;
/** Spares hold no data: they get little time to stop before SIGKILL. */
const SPARE_STOP_GRACE_MS = 2000;

/**
 * Keeps a few redis-server processes started in cluster mode, not yet part of
 * any cluster, so that new primaries skip Redis's start-up delay. A spare is
 * claimed by moving its directory to the instance's and reconfiguring it at
 * runtime (its config uses paths relative to its working directory).
 */
export class SparePool {
  private readonly spares = new Map<number, Spare>();
  private readonly root: string;
  private timer?: NodeJS.Timeout;
  private maintaining?: Promise<void>;
  private stopped = false;
  /** The spare being started: stopAll() ends it too. */
  private spawning: number | null = null;
  /** Ports another process listens on (port -> when to look again). */
  private readonly taken = new Map<number, number>();

  constructor(private readonly d: {
    dataDir: string; address: string; redisServer: string; log: Logger; count: number; topPort: number;
    /** Ports the node's instances use (never given to a spare). */
    usedPorts: () => Set<number>;
    onChange: () => void;
  }) {
    this.root = path.join(d.dataDir, 'spares');
  }

  async start(): Promise<void> {
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.root)) {
      const dir = path.join(this.root, name);
      const meta = readMeta(dir);
      const pid = readPid(path.join(dir, 'redis.pid'));
      if (meta && pid && isRedisOnPort(pid, meta.port)) this.spares.set(meta.port, { ...meta, pid, dir });
      else {
        // A spare still starting when the last agent died is no one's: stopped, or it would hold its port for good.
        if (pid && isAlive(pid)) await stopProcesses([pid], 1000);
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (this.d.count > 0) {
      this.timer = setInterval(() => void this.maintain(), 1000);
      void this.maintain();
    }
  }

  /** Ports of spares that are warm (old enough to skip the start-up delay) and alive. */
  warmPorts(now = Date.now()): number[] {
    return [...this.spares.values()].filter((s) => now - s.startedAt >= WARM_AFTER_MS && isAlive(s.pid)).map((s) => s.port);
  }

  /**
   * Hands over the spare on this port, if there is a live one; the pool
   * refills itself. One not serving its port (yet) is stopped and removed
   * here: its port is about to be used by an instance.
   */
  async take(port: number): Promise<Spare | null> {
    if (this.stopped) return null;
    const s = this.spares.get(port);
    if (!s) return null;
    this.spares.delete(port);
    // The port is the instance's from now on: no new spare there (nor in the directory about to be removed)
    // until the instance is registered and the node's used ports say so.
    this.taken.set(port, Date.now() + PORT_HANDED_OVER_MS);
    setImmediate(() => void this.maintain());
    if (isRedisOnPort(s.pid, port)) return s;
    if (isAlive(s.pid)) await stopProcesses([s.pid], 1000);
    rmSync(s.dir, { recursive: true, force: true });
    return null;
  }

  maintain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.maintaining ??= this.refill().finally(() => { this.maintaining = undefined; });
    return this.maintaining;
  }

  private async refill(): Promise<void> {
    try {
      for (const s of [...this.spares.values()]) {
        if (!isAlive(s.pid)) {
          this.spares.delete(s.port);
          rmSync(s.dir, { recursive: true, force: true });
        }
      }
      while (!this.stopped && this.spares.size < this.d.count) {
        const port = this.freePort();
        if (port === null) break;
        await this.spawnSpare(port);
      }
    } catch (err) {
      if (!this.stopped) this.d.log.warn({ err: (err as Error).message }, 'could not keep the spare pool full');
    }
  }

  private freePort(): number | null {
    const used = this.d.usedPorts();
    for (let p = this.d.topPort; p > this.d.topPort - 100; p--) {
      if (!used.has(p) && !this.spares.has(p) && (this.taken.get(p) ?? 0) <= Date.now()) return p;
    }
    return null;
  }

  /** Is this port (or its cluster bus port) held by another process? Then remember it and say who. */
  private async portTaken(port: number): Promise<boolean> {
    for (const p of [port, port + 10000]) {
      const holder = (await portHoldersIfListening(this.d.address, p))[0];
      if (!holder) continue;
      // One of this node's own engines (a spare being claimed as an instance) needs no warning.
      const ours = !!holder.process && worksUnder(holder.process, this.d.dataDir);
      this.taken.set(port, Date.now() + (ours ? OWN_PORT_RETRY_MS : TAKEN_PORT_RETRY_MS));
      if (ours) return true;
      const who = holder.process ? describeProcess(holder.process) : 'a process this user cannot inspect';
      this.d.log.warn({ port }, `${holder.address}:${p} is in use by ${who}: no spare on ${this.d.address}:${port}`);
      return true;
    }
    return false;
  }

  private async spawnSpare(port: number): Promise<void> {
    if (this.stopped || (await this.portTaken(port))) return;
    const dir = path.join(this.root, String(port));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const password = randomBytes(16).toString('hex');
    writeFileSync(path.join(dir, 'redis.conf'), renderRedisConfig({
      address: this.d.address, port, dataDir: '.', memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction',
      credentials: { ...SPARE_USERS, internalPassword: password, customerPassword: randomBytes(16).toString('hex') },
    }), { mode: 0o600 });
    const startedAt = Date.now();
    writeFileSync(path.join(dir, 'spare.json'), JSON.stringify({ port, password, startedAt }), { mode: 0o600 });
    const out = openSync(path.join(dir, 'stdout.log'), 'a');
    let exited = false;
    let child: ReturnType<typeof spawn> | undefined;
    try {
      child = spawn(this.d.redisServer, ['redis.conf'], { cwd: dir, detached: true, stdio: ['ignore', out, out] });
      this.spawning = child.pid ?? null;
      child.once('exit', () => { exited = true; });
      child.once('error', () => { exited = true; });
      child.unref();
      await waitForRedis(this.d.address, port, 5000, () => exited);
      this.spares.set(port, { port, pid: child.pid!, dir, password, startedAt });
      // Tell the control plane once it is warm.
      setTimeout(() => this.d.onChange(), WARM_AFTER_MS + 50).unref();
    } catch (err) {
      if (child?.pid && !exited) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ }
      rmSync(dir, { recursive: true, force: true });
      throw err;
    } finally {
      this.spawning = null;
      closeSync(out);
    }
  }

  /** Spare engines running now (one being started included). */
  pids(): number[] {
    return [...this.spares.values()].map((s) => s.pid).concat(this.spawning ? [this.spawning] : []);
  }

  /**
   * Stops every spare, including one being started right now, within a
   * bound (SIGTERM, SIGKILL after `graceMs`). Returns the spares that needed SIGKILL.
   */
  async stopAll(graceMs = SPARE_STOP_GRACE_MS): Promise<number[]> {
    this.stopped = true;
    clearInterval(this.timer);
    const killed = await stopProcesses(this.pids(), graceMs);
    await this.maintaining;
    for (const s of this.spares.values()) rmSync(s.dir, { recursive: true, force: true });
    this.spares.clear();
    return killed;
  }

  /** SIGKILL to every spare at once (the agent's last resort when its stop overruns). */
  killAll(): void {
    this.stopped = true;
    for (const pid of this.pids()) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }

  detach(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}

function readMeta(dir: string): { port: number; password: string; startedAt: number } | null {
  const f = path.join(dir, 'spare.json');
  if (!existsSync(f)) return null;
  try {
    return JSON.parse(readFileSync(f, 'utf8'));
  } catch {
    return null;
  }
}
