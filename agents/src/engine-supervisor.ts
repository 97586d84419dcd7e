import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { EngineCredentials, InstanceSpec, ObservedInstanceState } from '@strata/api';
import { renderRedisConfig } from '@strata/engine';
import { applyInstanceSettings, SPARE_USERS } from '@strata/engine/redis-admin';
import type { SparePool } from './spare-pool';
import type { InstanceRegistry } from './instance-registry';
import { isAlive, isRedisOnPort, readPid, waitForExit, waitForRedis } from './process-utils';

interface Runtime {
  pid: number | null;
  state: ObservedInstanceState;
  restarts: number;
  lastError: string | null;
  nextRestartAt: number;
  backoffMs: number;
  /** A crashed former primary waits for the control plane (promote its replica first) until holdUntil. */
  held: boolean;
  holdUntil: number;
  /** When this agent saw the process exit (ms epoch). */
  crashedAt: number | null;
}

const fresh = (pid: number | null, state: ObservedInstanceState, restarts = 0): Runtime => ({
  pid, state, restarts, lastError: null, nextRestartAt: 0, backoffMs: MIN_BACKOFF, held: false, holdUntil: 0, crashedAt: null,
});

const MIN_BACKOFF = 250;
const MAX_BACKOFF = 30_000;

/** How often adopted engines (not our children) are checked for exit; our own children report exit at once. */
const WATCH_MS = 100;

/**
 * Runs redis-server processes for this node. Engines are started detached so
 * they outlive an agent restart; a new agent adopts them by pid file. The
 * crash is reported at once. A crashed replica is restarted with exponential
 * backoff; a crashed former primary is held: restarted only when the control
 * plane says so (after promoting its replica, so the replica never resyncs
 * from an empty restarted primary), or when the hold expires.
 */
export class EngineSupervisor {
  private readonly runtime = new Map<string, Runtime>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly d: {
      registry: InstanceRegistry; address: string; redisServer: string; log: Logger; onChange: () => void; spares?: SparePool;
      /** How long a crashed former primary waits for the control plane before restarting on its own. */
      primaryHoldMs?: number;
    },
  ) {}

  /** Adopt engines still running from a previous agent; start the rest. */
  async recover(): Promise<void> {
    for (const rec of this.d.registry.all()) {
      const pid = readPid(this.pidFile(rec.spec.instanceId));
      if (pid && isRedisOnPort(pid, rec.spec.port)) {
        this.runtime.set(rec.spec.instanceId, fresh(pid, 'running'));
        this.d.log.info({ instanceId: rec.spec.instanceId, pid }, 'adopted running engine');
      } else if (rec.lastRole === 'primary') {
        // It stopped while this agent was away: same rule as a crash.
        const rt = fresh(null, 'stopped');
        this.hold(rec.spec.instanceId, rt, 'engine not running when the agent started');
        this.runtime.set(rec.spec.instanceId, rt);
      } else {
        await this.start(rec.spec.instanceId).catch((err) => this.d.log.error({ err, instanceId: rec.spec.instanceId }, 'could not restart engine'));
      }
    }
    this.timer = setInterval(() => void this.watch(), WATCH_MS);
  }

  private hold(instanceId: string, rt: Runtime, why: string): void {
    rt.held = true;
    rt.holdUntil = Date.now() + (this.d.primaryHoldMs ?? 20_000);
    rt.crashedAt ??= Date.now();
    this.d.log.warn({ instanceId, why, holdMs: this.d.primaryHoldMs ?? 20_000 }, 'former primary held: waiting for the control plane to promote its replica before restarting it');
  }

  status(instanceId: string): Runtime | undefined {
    return this.runtime.get(instanceId);
  }

  /** Idempotent: write the config and make sure the engine runs. */
  async ensure(spec: InstanceSpec, credentials: EngineCredentials): Promise<void> {
    const dir = this.d.registry.instanceDir(spec.instanceId);
    if (!this.d.registry.get(spec.instanceId) && !existsSync(dir) && (await this.claimSpare(spec, credentials))) return;
    this.d.registry.put({ spec, credentials });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.writeConfig(spec, credentials);
    const rt = this.runtime.get(spec.instanceId);
    if (rt?.pid && isRedisOnPort(rt.pid, spec.port)) return;
    const pid = readPid(this.pidFile(spec.instanceId));
    if (pid && isRedisOnPort(pid, spec.port)) {
      this.runtime.set(spec.instanceId, fresh(pid, 'running', rt?.restarts ?? 0));
      return;
    }
    // The control plane asked for this instance to run: that ends any hold.
    if (rt?.held) this.d.log.info({ instanceId: spec.instanceId }, 'control plane released the held engine; restarting it');
    if (rt) rt.held = false;
    await this.start(spec.instanceId);
  }

  /**
   * New settings for a running instance (memory, durability, eviction): the
   * stored spec and its redis.conf are rewritten, so a restart keeps what the
   * caller then applies at runtime with CONFIG SET.
   */
  updateSpec(spec: InstanceSpec, credentials: EngineCredentials): void {
    if (!this.d.registry.get(spec.instanceId)) throw new Error(`instance ${spec.instanceId} is not on this node`);
    this.d.registry.put({ ...this.d.registry.get(spec.instanceId)!, spec, credentials });
    this.writeConfig(spec, credentials);
  }

  /** Paths in the config are relative: the engine runs with its directory as working directory. */
  private writeConfig(spec: InstanceSpec, credentials: EngineCredentials): void {
    writeFileSync(path.join(this.d.registry.instanceDir(spec.instanceId), 'redis.conf'), renderRedisConfig({
      address: this.d.address, port: spec.port, dataDir: '.', memoryMb: spec.memoryMb,
      durability: spec.durability, evictionPolicy: spec.evictionPolicy, credentials,
    }), { mode: 0o600 });
  }

  /**
   * A warm spare on the planned port becomes this instance: its directory is
   * moved into place (the process keeps its working directory) and it is
   * reconfigured at runtime. Falls back to a cold start on any failure.
   */
  private async claimSpare(spec: InstanceSpec, credentials: EngineCredentials): Promise<boolean> {
    const spare = this.d.spares?.take(spec.port);
    if (!spare) return false;
    const dir = this.d.registry.instanceDir(spec.instanceId);
    try {
      mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      renameSync(spare.dir, dir);
      await applyInstanceSettings({
        host: this.d.address, port: spec.port, current: { username: SPARE_USERS.internalUser, password: spare.password },
        settings: { memoryMb: spec.memoryMb, durability: spec.durability, evictionPolicy: spec.evictionPolicy, credentials },
      });
      rmSync(path.join(dir, 'spare.json'), { force: true });
      this.d.registry.put({ spec, credentials });
      this.writeConfig(spec, credentials);
      this.runtime.set(spec.instanceId, fresh(spare.pid, 'running'));
      this.d.log.info({ instanceId: spec.instanceId, pid: spare.pid, port: spec.port }, 'claimed warm spare');
      this.d.onChange();
      return true;
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message, port: spec.port }, 'could not claim spare; starting a fresh engine');
      await this.kill(spare.pid);
      rmSync(existsSync(dir) ? dir : spare.dir, { recursive: true, force: true });
      return false;
    }
  }

  private pidFile(instanceId: string): string {
    return path.join(this.d.registry.instanceDir(instanceId), 'redis.pid');
  }

  private async start(instanceId: string): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    if (!rec) throw new Error(`unknown instance ${instanceId}`);
    const dir = this.d.registry.instanceDir(instanceId);
    const prev = this.runtime.get(instanceId);
    const rt: Runtime = prev ?? fresh(null, 'starting');
    rt.state = 'starting';
    rt.held = false;
    this.runtime.set(instanceId, rt);
    this.d.onChange();
    const out = openSync(path.join(dir, 'stdout.log'), 'a');
    let exited = false;
    try {
      const child = spawn(this.d.redisServer, [path.join(dir, 'redis.conf')], { cwd: dir, detached: true, stdio: ['ignore', out, out] });
      child.once('exit', () => {
        exited = true;
        // Our own child: the exit is known at once, no polling delay.
        if (rt.pid === child.pid && rt.state === 'running') this.crashed(instanceId, rt);
      });
      child.once('error', (err) => { exited = true; rt.lastError = err.message; });
      child.unref();
      rt.pid = child.pid ?? null;
      await waitForRedis(this.d.address, rec.spec.port, 10_000, () => exited);
      rt.state = 'running';
      rt.lastError = null;
      rt.crashedAt = null;
      this.d.log.info({ instanceId, pid: rt.pid, port: rec.spec.port }, 'engine started');
    } catch (err) {
      rt.state = 'crashed';
      rt.lastError = `${(err as Error).message}${this.logTail(dir)}`;
      rt.nextRestartAt = Date.now() + rt.backoffMs;
      rt.backoffMs = Math.min(rt.backoffMs * 2, MAX_BACKOFF);
      throw new Error(rt.lastError);
    } finally {
      closeSync(out);
      this.d.onChange();
    }
  }

  private logTail(dir: string): string {
    for (const f of ['redis.log', 'stdout.log']) {
      const file = path.join(dir, f);
      if (!existsSync(file)) continue;
      const lines = readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ');
      if (lines) return `: ${lines}`;
    }
    return '';
  }

  /** The engine exited without being asked to: report at once; hold a former primary. */
  private crashed(id: string, rt: Runtime): void {
    if (rt.state !== 'running') return;
    rt.state = 'crashed';
    rt.restarts++;
    rt.crashedAt = Date.now();
    rt.lastError = `redis-server (pid ${rt.pid}) exited unexpectedly${this.logTail(this.d.registry.instanceDir(id))}`;
    rt.nextRestartAt = Date.now() + rt.backoffMs;
    rt.backoffMs = Math.min(rt.backoffMs * 2, MAX_BACKOFF);
    if (this.d.registry.get(id)?.lastRole === 'primary') this.hold(id, rt, 'primary exited');
    else this.d.log.warn({ instanceId: id, restarts: rt.restarts }, 'engine crashed; restarting with backoff');
    this.d.onChange();
  }

  /** Crash detection for adopted engines, restarts with backoff, and hold expiry. */
  private async watch(): Promise<void> {
    for (const rec of this.d.registry.all()) {
      const id = rec.spec.instanceId;
      const rt = this.runtime.get(id);
      if (!rt || rt.state === 'starting') continue;
      if (rt.state === 'running' && rt.pid && !isAlive(rt.pid)) this.crashed(id, rt);
      if (rt.held) {
        if (Date.now() < rt.holdUntil) continue;
        this.d.log.warn({ instanceId: id }, 'hold expired without word from the control plane; restarting the former primary');
        rt.held = false;
      }
      if ((rt.state === 'crashed' || rt.state === 'stopped') && Date.now() >= rt.nextRestartAt) {
        await this.start(id).then(() => {
          // A healthy run resets the backoff after it has stayed up.
          setTimeout(() => { if (rt.state === 'running') rt.backoffMs = MIN_BACKOFF; }, 10_000).unref();
        }).catch(() => {});
      }
    }
  }

  /** Stop the engine and delete its data. Idempotent. */
  async remove(instanceId: string): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    const rt = this.runtime.get(instanceId);
    const pid = rt?.pid ?? readPid(this.pidFile(instanceId));
    if (rt) rt.state = 'stopped';
    this.runtime.delete(instanceId);
    if (rec) this.d.registry.delete(instanceId);
    if (pid && (!rec || isRedisOnPort(pid, rec.spec.port))) await this.kill(pid);
    rmSync(this.d.registry.instanceDir(instanceId), { recursive: true, force: true });
    this.d.onChange();
  }

  /**
   * Fault injection (the "Failover under load" benchmark): kill -9 of a
   * running engine, exactly as a crash; the supervisor notices it the usual
   * way (exit event or watch) and the control plane heals the shard.
   */
  async crash(instanceId: string): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    const rt = this.runtime.get(instanceId);
    if (!rec || !rt?.pid || rt.state !== 'running' || !isRedisOnPort(rt.pid, rec.spec.port)) throw new Error(`instance ${instanceId} is not running on this node`);
    process.kill(rt.pid, 'SIGKILL');
  }

  private async kill(pid: number): Promise<void> {
    try { process.kill(pid, 'SIGTERM'); } catch { return; }
    if (!(await waitForExit(pid, 5000))) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
      await waitForExit(pid, 2000);
    }
  }

  /** Stops every engine, keeping data (used when the local pool shuts down). */
  async stopAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.d.registry.all().map(async (rec) => {
      const rt = this.runtime.get(rec.spec.instanceId);
      if (rt) rt.state = 'stopped';
      const pid = rt?.pid ?? readPid(this.pidFile(rec.spec.instanceId));
      if (pid && isRedisOnPort(pid, rec.spec.port)) await this.kill(pid);
    }));
  }

  detach(): void {
    clearInterval(this.timer);
  }
}
