import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { EngineCredentials, InstanceSeed, InstanceSpec, ObservedInstanceState, TaskPayload } from '@strata/api';
import { claimsSlots, databaseUsersDigest, renderRedisConfig, withoutOwnClaims } from '@strata/engine';
import { certificateExpiry, trustFileDigest, writeTlsFiles } from './tls-files';
import { applyInstanceSettings, connectAdmin, internalLogin, reconfigureInstance, reloadTlsFiles, runTlsSwitchMember, SPARE_USERS, syncDatabaseUsers, tlsLogin } from '@strata/engine/redis-admin';
import { awaitAofWritten, awaitSeedLoaded, connectWhileLoading, copySeed } from './backup/seed-instance';
import type { SparePool } from './spare-pool';
import type { InstanceRecord, InstanceRegistry } from './instance-registry';
import { describeProcess, isAlive, isRedisOnPort, portHoldersIfListening, readPid, stopProcesses, waitForRedis, worksUnder } from './process-utils';

interface Runtime {
  pid: number | null;
  state: ObservedInstanceState;
  restarts: number;
  lastError: string | null;
  nextRestartAt: number;
  backoffMs: number;
  /** A crashed former primary, or an engine found stopped at agent start, waits until the control plane says to restart it. */
  held: boolean;
  /** When the process exited (ms epoch): seen by this agent, or for an engine found stopped at agent start, the last time an agent saw it running (the crash came later). */
  crashedAt: number | null;
}

/**
 * The engine `pid` is this instance's: its process title names the instance's port, or (Valkey retitles itself with
 * its plain-text port) the second port it serves plain text on while an in-place TLS switch serves both.
 */
const onItsPort = (pid: number, spec: InstanceSpec): boolean =>
  isRedisOnPort(pid, spec.port) || (!!spec.tlsLayout?.secondPort && isRedisOnPort(pid, spec.tlsLayout.secondPort));

const fresh = (pid: number | null, state: ObservedInstanceState, restarts = 0): Runtime => ({
  pid, state, restarts, lastError: null, nextRestartAt: 0, backoffMs: MIN_BACKOFF, held: false, crashedAt: null,
});

const MIN_BACKOFF = 250;
const MAX_BACKOFF = 30_000;

/** How often adopted engines (not our children) are checked for exit; our own children report exit at once. */
const WATCH_MS = 100;
/** How often the engines the agent started itself (whose exit it hears at once) are checked too. */
const FULL_CHECK_MS = 1000;
/** How often the "engines seen running until" mark is written (the crash-time bound for engines found stopped at start). */
const ALIVE_MARK_MS = 1000;
/** Per agent: until when (ms epoch) every engine it ran as `running` was seen alive. */
const ALIVE_MARK = 'engines-seen-running-at';
/** Per instance: when its agent saw the engine exit (ms epoch); removed when it runs again. */
const CRASH_MARK = 'crashed-at';
/**
 * How long an engine gets to stop on SIGTERM (write its AOF buffer, fsync,
 * exit) before SIGKILL. A SIGKILL loses nothing Redis has acknowledged: it
 * writes the AOF buffer to the file before it replies (except while an
 * appendfsync everysec fsync lags, up to 2 s of writes), and the kernel keeps
 * what was written; what is lost is the final fsync (a machine crash soon
 * after could lose the last second) and a primary's wait for lagging replicas.
 */
export const ENGINE_STOP_GRACE_MS = 4000;

/** Warm spares run redis-server (Redis 7.0): only an instance of that engine may become one. */
export const sparesServe = (spec: Pick<InstanceSpec, 'engineVersion'>): boolean => (spec.engineVersion ?? '7') === '7';

/**
 * Runs redis-server processes for this node. Engines are started detached so
 * they outlive an agent restart; a new agent adopts them by pid file. The
 * crash is reported at once. A crashed replica is restarted with exponential
 * backoff; a crashed former primary is held: restarted only when the control
 * plane says so (after promoting its replica, so the replica never resyncs
 * from an empty restarted primary) with an ensure that says `release`. A
 * plain ensure (an operation making sure its instances run, sent while this
 * node's reports were late) leaves a held engine stopped: restarted empty
 * before its replica took over, it would still claim its slots and wipe
 * that replica. There is no timed release: with one or
 * two shards Redis cannot fail over on its own, and a primary restarted
 * empty on a timer wipes its replica.
 *
 * An engine found stopped when the agent starts is held too, whatever its
 * role: the node may have been away long enough for the control plane to
 * replace its copies, and a stale engine must not serve old data or rejoin.
 * The control plane restarts it (ensure-instance with `release`) if it still wants it; the
 * orphan sweeper removes it otherwise. Its crash time is bounded from below
 * by the last time an agent saw it running (a mark written every second),
 * so the control plane can still tell whether its replica was in sync.
 */
export class EngineSupervisor {
  private readonly runtime = new Map<string, Runtime>();
  private timer?: NodeJS.Timeout;
  /** Detached (the agent is exiting and leaves its engines running): exits are no longer ours to handle. */
  private detached = false;
  /** Set by stopAll() and detach(): no engine starts from then on, whatever task is still running. */
  private closing = false;
  /** Engines this agent spawned and has not seen exit, starts in flight included. */
  private readonly children = new Set<number>();
  /** The warm spare being claimed: in no registry until it is reconfigured. */
  private claiming: number | null = null;

  constructor(
    private readonly d: {
      registry: InstanceRegistry; address: string; redisServer: string; log: Logger; onChange: () => void; spares?: SparePool;
      /** The valkey-8 engine's server (default valkey-server). */
      valkeyServer?: string;
        },
  ) {}

  /**
   * Adopt engines still running from a previous agent; hold the rest until
   * the control plane asks for them (never start them on our own: see the
   * class comment).
   */
  async recover(): Promise<void> {
    const lastSeenRunning = this.readMark(path.join(this.d.registry.dataDir, ALIVE_MARK));
    for (const rec of this.d.registry.all()) {
      const id = rec.spec.instanceId;
      const pid = await this.runningEngine(id, rec.spec);
      if (pid) {
        this.runtime.set(id, fresh(pid, 'running'));
        this.d.log.info({ instanceId: id, pid }, 'adopted running engine');
        continue;
      }
      // It stopped while no agent watched it (or its crash was seen by an agent that died since).
      const rt = fresh(null, 'stopped');
      rt.crashedAt = this.readMark(path.join(this.d.registry.instanceDir(id), CRASH_MARK)) ?? lastSeenRunning ?? Date.now();
      this.hold(id, rt, 'engine not running when the agent started');
      this.runtime.set(id, rt);
    }
    this.markAlive();
    this.timer = setInterval(() => void this.watch(), WATCH_MS);
  }

  private hold(instanceId: string, rt: Runtime, why: string): void {
    rt.held = true;
    this.d.log.warn({ instanceId, why, crashedAt: rt.crashedAt }, 'engine held: waiting for the control plane (it promotes a replica first, or removes a copy it replaced) before restarting it');
  }

  private readMark(file: string): number | null {
    try {
      const n = Number(readFileSync(file, 'utf8'));
      return Number.isFinite(n) && n > 0 ? n : null;
    } catch {
      return null;
    }
  }

  private writeMark(file: string, ms: number): void {
    try {
      writeFileSync(file + '.tmp', String(ms));
      renameSync(file + '.tmp', file);
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message, file }, 'could not write a supervisor mark');
    }
  }

  private lastAliveMark = 0;
  private lastFullCheck = 0;
  private aliveMarkFd: number | null = null;
  /**
   * Every engine this agent holds as running was alive now (checked by watch() just before, or reported by its exit event).
   * Written every second in place, 13 digits at offset 0 of a file kept open (a write and rename each second cost a
   * busy host's file system a forced flush each time); a torn write reads as no mark.
   */
  private markAlive(): void {
    const now = Date.now();
    if (now - this.lastAliveMark < ALIVE_MARK_MS) return;
    this.lastAliveMark = now;
    try {
      this.aliveMarkFd ??= openSync(path.join(this.d.registry.dataDir, ALIVE_MARK), 'w');
      writeSync(this.aliveMarkFd, String(now).padStart(13, '0'), 0);
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message }, 'could not write the engines-seen-running mark');
    }
  }

  status(instanceId: string): Runtime | undefined {
    return this.runtime.get(instanceId);
  }

  /**
   * The pid of this instance's redis-server if one runs: by its pid file, else the redis-server listening on its
   * port from the instance's directory (a pid file gone or stale).
   */
  private async runningEngine(instanceId: string, spec: InstanceSpec): Promise<number | null> {
    const pid = readPid(this.pidFile(instanceId));
    if (pid && onItsPort(pid, spec)) return pid;
    const own = (await portHoldersIfListening(this.d.address, spec.port)).find((h) => h.process && onItsPort(h.process.pid, spec) && worksUnder(h.process, this.d.registry.instanceDir(instanceId)));
    return own?.process?.pid ?? null;
  }

  /** Engines this supervisor runs (or is starting) now. */
  enginePids(): number[] {
    const pids = new Set(this.children);
    for (const rec of this.d.registry.all()) {
      const pid = this.runtime.get(rec.spec.instanceId)?.pid;
      if (pid && onItsPort(pid, rec.spec)) pids.add(pid);
    }
    return [...pids];
  }

  /** Stops the warm spare on `port`, if any, and deletes its directory: the port is about to be used otherwise. */
  private async discardSpare(port: number): Promise<void> {
    const spare = await this.d.spares?.take(port);
    if (!spare) return;
    await this.kill(spare.pid);
    rmSync(spare.dir, { recursive: true, force: true });
  }

  /** Idempotent: write the config and make sure the engine runs. */
  async ensure(spec: InstanceSpec, credentials: EngineCredentials, seed?: InstanceSeed, opts: { dropClaims?: boolean; release?: boolean } = {}): Promise<void> {
    if (this.closing) throw new Error('the agent is stopping: not starting engines');
    const dir = this.d.registry.instanceDir(spec.instanceId);
    const firstStart = !this.d.registry.get(spec.instanceId) && !existsSync(dir);
    if (firstStart && seed) return this.startSeeded(spec, credentials, seed);
    // Warm spares are plain-text redis-servers: a TLS instance starts cold with its certificate, and a valkey-8 one with
    // its own engine, in place of a spare on its port.
    if (firstStart && (credentials.tls || !sparesServe(spec))) await this.discardSpare(spec.port);
    else if (firstStart && (await this.claimSpare(spec, credentials))) return;
    this.d.registry.put({ spec, credentials });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.writeConfig(spec, credentials);
    const rt = this.runtime.get(spec.instanceId);
    if (rt?.pid && onItsPort(rt.pid, spec)) return;
    const pid = await this.runningEngine(spec.instanceId, spec);
    if (pid) {
      this.runtime.set(spec.instanceId, fresh(pid, 'running', rt?.restarts ?? 0));
      return;
    }
    // It was running and has exited, and the watch loop has not seen it yet: that is a crash, seen now (a former
    // primary is held), not a reason to start it at once.
    if (rt?.state === 'running') this.crashed(spec.instanceId, rt);
    if (rt?.held && !opts.release) {
      this.d.log.warn({ instanceId: spec.instanceId }, 'engine stays held: only a restart from healing starts a held engine again');
      return;
    }
    // Healing asked for this instance to run again: that ends the hold.
    if (rt?.held) this.d.log.info({ instanceId: spec.instanceId }, 'control plane released the held engine; restarting it');
    if (rt) rt.held = false;
    this.d.registry.put({ ...this.d.registry.get(spec.instanceId)!, usersDigest: usersDigestOf(credentials) });
    if (opts.dropClaims) this.dropOwnClaims(spec.instanceId);
    // A restored primary that stopped before its cluster was ready (only then does the control plane hand a seed to
    // an engine that started before): it may have come back without what it loaded, so it loads its backup file again.
    if (seed) {
      this.d.log.warn({ instanceId: spec.instanceId }, 'restored engine stopped before its cluster was ready: loading its backup file again');
      return this.loadSeed(spec, credentials, seed);
    }
    await this.start(spec.instanceId);
  }

  /** Its nodes.conf (saved by Redis on every role and slot change) says it was a primary serving slots. */
  private savedAsPrimary(instanceId: string): boolean {
    try {
      return claimsSlots(readFileSync(path.join(this.d.registry.instanceDir(instanceId), 'nodes.conf'), 'utf8'));
    } catch {
      return false;
    }
  }

  /** A replaced primary, not running: its nodes.conf loses the slots and migration marks it claimed (see withoutOwnClaims). */
  private dropOwnClaims(instanceId: string): void {
    const file = path.join(this.d.registry.instanceDir(instanceId), 'nodes.conf');
    if (!existsSync(file)) return;
    const edited = withoutOwnClaims(readFileSync(file, 'utf8'));
    if (!edited?.dropped.length) return;
    writeFileSync(`${file}.tmp`, edited.text, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.d.log.info({ instanceId, dropped: edited.dropped.join(' ') }, 'replaced primary starts without its old slot claims');
  }

  /** The server binary an instance runs: redis-server, or valkey-server for the valkey-8 engine. */
  private engineBinary(spec: InstanceSpec): string {
    return spec.engineVersion === 'valkey-8' ? (this.d.valkeyServer ?? 'valkey-server') : this.d.redisServer;
  }

  /** The instance's data directory (its engine's working directory). */
  instanceDir(instanceId: string): string {
    return this.d.registry.instanceDir(instanceId);
  }

  /**
   * A restored primary's first start: its backup file becomes the RDB it
   * loads (never a warm spare: a spare on its port is stopped). It starts
   * without an append-only file, which would hide the RDB, and gets its
   * persistence once every key is loaded and checked against the manifest.
   * The file is then deleted, so a later restart never loads the backup
   * again. Any failure removes the instance, so a retry starts over.
   */
  private async startSeeded(spec: InstanceSpec, credentials: EngineCredentials, seed: InstanceSeed): Promise<void> {
    const id = spec.instanceId;
    const dir = this.d.registry.instanceDir(id);
    await this.discardSpare(spec.port);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.d.registry.put({ spec, credentials, usersDigest: usersDigestOf(credentials) });
      await this.loadSeed(spec, credentials, seed);
    } catch (err) {
      await this.remove(id).catch(() => {});
      throw err;
    }
  }

  /**
   * The backup file becomes the RDB the (stopped) engine loads at its start, without an append-only file; once every
   * key is in and checked against the manifest, the instance gets its persistence and the file is deleted. Its
   * nodes.conf, if it has one, is kept: a member of a formed cluster comes back as itself, with its slots.
   */
  private async loadSeed(spec: InstanceSpec, credentials: EngineCredentials, seed: InstanceSeed): Promise<void> {
    const id = spec.instanceId;
    const dir = this.d.registry.instanceDir(id);
    const { bytes } = await copySeed(seed, dir);
    this.writeConfig({ ...spec, durability: 'none' }, credentials);
    await this.start(id);
    const client = await connectWhileLoading(() => connectAdmin({ host: this.d.address, port: spec.port, ...internalLogin(credentials) }, 5000), 30 * 60_000);
    try {
      const loaded = await awaitSeedLoaded(client, seed, 30 * 60_000);
      await reconfigureInstance(client, spec);
      // The backup file is deleted below: not before the append-only file it switched on holds the data.
      await awaitAofWritten(client, 30 * 60_000);
      this.d.log.info({ instanceId: id, bytes, keys: loaded }, 'restored engine loaded its backup file');
    } finally {
      client.disconnect();
    }
    this.writeConfig(spec, credentials);
    rmSync(path.join(dir, 'dump.rdb'), { force: true });
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

  /**
   * The cluster's database users on a running instance: set at runtime
   * (ACL SETUSER/DELUSER; a deleted user's connections close at once) and
   * written into its redis.conf, so a restart keeps them.
   */
  async syncUsers(instanceId: string, credentials: EngineCredentials): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    if (!rec) throw new Error(`instance ${instanceId} is not on this node`);
    const client = await connectAdmin({ host: this.d.address, port: rec.spec.port, ...internalLogin(credentials) }, 5000);
    try {
      const deleted = await syncDatabaseUsers(client, credentials.databaseUsers ?? [], [credentials.internalUser, credentials.customerUser]);
      if (deleted.length) this.d.log.info({ instanceId, deleted }, 'deleted database users');
    } finally {
      client.disconnect();
    }
    this.d.registry.put({ ...rec, credentials, usersDigest: usersDigestOf(credentials) });
    this.writeConfig(rec.spec, credentials);
  }

  /**
   * A TLS instance's fresh certificate: written into its directory (0600),
   * kept in its record (a restart serves it too) and loaded by the running
   * engine with CONFIG SET, without a restart. Open connections keep their
   * session; new ones get the new certificate, from the same CA.
   */
  async renewCertificate(instanceId: string, credentials: EngineCredentials): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    if (!rec) throw new Error(`instance ${instanceId} is not on this node`);
    if (!credentials.tls?.instanceCertificate) throw new Error('renew-certificate came without a certificate');
    await this.reloadTls(instanceId, rec, credentials.tls, credentials.tls, credentials);
  }

  /**
   * A TLS instance's client trust as desired now (the credentials' trusted
   * certificates: the CA and the issuers of live client certificates)
   * written as its CA file, kept in its record and loaded with CONFIG SET,
   * without a restart. A revoked client certificate is refused from the
   * next handshake; open connections keep their session.
   */
  async syncTrust(instanceId: string, credentials: EngineCredentials): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    if (!rec) throw new Error(`instance ${instanceId} is not on this node`);
    if (!credentials.tls || !rec.credentials.tls) throw new Error('sync-trust on an instance without TLS');
    const tls = { ...rec.credentials.tls, caCertificate: credentials.tls.caCertificate, trustedCertificates: credentials.tls.trustedCertificates };
    await this.reloadTls(instanceId, rec, { caCertificate: tls.caCertificate, trustedCertificates: tls.trustedCertificates }, tls, credentials);
  }

  /**
   * This instance's part of a stage of an in-place TLS switch: its certificate and CA written first (the stage that
   * turns TLS on loads them), the stage's settings set on the running engine, then the spec it runs with from now on
   * kept in its record and its redis.conf (a restart serves the same), with the credentials Strata's own connections
   * use on its port (plain text or TLS as the port now speaks).
   */
  async switchTls(p: Extract<TaskPayload, { kind: 'tls-switch' }>): Promise<{ applied: boolean }> {
    const id = p.member.instanceId;
    const rec = this.d.registry.get(id);
    if (!rec) throw new Error(`instance ${id} is not on this node`);
    if (!p.credentials.tls) throw new Error('tls-switch came without TLS credentials');
    writeTlsFiles(this.d.registry.instanceDir(id), p.credentials.tls);
    const r = await runTlsSwitchMember({
      direction: p.direction, stage: p.stage, member: { ...p.member, host: this.d.address }, replicas: p.replicas,
      username: p.credentials.internalUser, password: p.credentials.internalPassword, tls: tlsLogin(p.credentials.tls), clientAuth: p.instance.tlsClientAuth,
    });
    if (!p.instance.tlsLayout) throw new Error('tls-switch came without the layout the instance serves after the stage');
    const layout = p.instance.tlsLayout.layout;
    const { tls, ...rest } = p.credentials;
    const credentials: EngineCredentials = layout === 'plain' && !p.instance.tlsLayout?.bus
      ? rest
      : { ...rest, tls: { ...tls, plainPort: layout === 'plain' || layout === 'plain+tls' ? true : undefined } };
    if (!credentials.tls?.plainPort) delete credentials.tls?.plainPort;
    this.d.registry.put({ ...rec, spec: p.instance, credentials });
    this.writeConfig(p.instance, credentials);
    if (credentials.tls) this.servedCertificateLoaded(id);
    return r;
  }

  /** Writes these TLS files into the instance's directory, keeps `kept` in its record, and has the engine load them (CONFIG SET, no restart). */
  private async reloadTls(
    instanceId: string, rec: InstanceRecord, files: Parameters<typeof writeTlsFiles>[1], kept: NonNullable<EngineCredentials['tls']>, credentials: EngineCredentials,
  ): Promise<void> {
    writeTlsFiles(this.d.registry.instanceDir(instanceId), files);
    this.d.registry.put({ ...rec, credentials: { ...rec.credentials, tls: kept } });
    const client = await connectAdmin({ host: this.d.address, port: rec.spec.port, ...internalLogin(credentials) }, 5000);
    try {
      await reloadTlsFiles(client);
    } finally {
      client.disconnect();
    }
    this.servedCertificateLoaded(instanceId);
  }

  /** The engine just loaded the files in its directory (it started, or reloaded its tls-* files): they are what it serves and trusts. */
  servedCertificateLoaded(instanceId: string): void {
    const rec = this.d.registry.get(instanceId);
    if (!rec?.credentials.tls) return;
    const dir = this.d.registry.instanceDir(instanceId);
    const expiresAt = certificateExpiry(dir);
    const trustDigest = trustFileDigest(dir) ?? undefined;
    if ((expiresAt !== null && expiresAt !== rec.certificateExpiresAt) || trustDigest !== rec.trustDigest) {
      this.d.registry.put({ ...rec, ...(expiresAt !== null ? { certificateExpiresAt: expiresAt } : {}), trustDigest });
    }
  }

  /** Digest of the CA file a TLS instance loaded (null: no TLS, or not known). */
  loadedTrustDigest(instanceId: string): string | null {
    const rec = this.d.registry.get(instanceId);
    if (!rec?.credentials.tls) return null;
    if (rec.trustDigest === undefined) this.servedCertificateLoaded(instanceId);
    return this.d.registry.get(instanceId)?.trustDigest ?? null;
  }

  /**
   * When the certificate a TLS instance serves expires (ms epoch; null: no
   * TLS). An engine whose record does not say (started by an agent that did
   * not keep it) is taken to serve the certificate in its directory.
   */
  servedCertificateExpiry(instanceId: string): number | null {
    const rec = this.d.registry.get(instanceId);
    if (!rec?.credentials.tls) return null;
    if (rec.certificateExpiresAt === undefined) this.servedCertificateLoaded(instanceId);
    return this.d.registry.get(instanceId)?.certificateExpiresAt ?? null;
  }

  /** Paths in the config are relative: the engine runs with its directory as working directory. */
  private writeConfig(spec: InstanceSpec, credentials: EngineCredentials): void {
    const dir = this.d.registry.instanceDir(spec.instanceId);
    const tls = credentials.tls ? writeTlsFiles(dir, credentials.tls) : undefined;
    writeFileSync(path.join(dir, 'redis.conf'), renderRedisConfig({
      address: this.d.address, port: spec.port, dataDir: '.', memoryMb: spec.memoryMb,
      durability: spec.durability, evictionPolicy: spec.evictionPolicy, fencing: spec.fencing, credentials, tls, tlsClientAuth: spec.tlsClientAuth,
      ...(spec.tlsLayout ? { tlsLayout: spec.tlsLayout } : {}),
    }), { mode: 0o600 });
  }

  /**
   * A warm spare on the planned port becomes this instance: its directory is
   * moved into place (the process keeps its working directory) and it is
   * reconfigured at runtime. Falls back to a cold start on any failure.
   */
  private async claimSpare(spec: InstanceSpec, credentials: EngineCredentials): Promise<boolean> {
    const spare = await this.d.spares?.take(spec.port);
    if (!spare) return false;
    const dir = this.d.registry.instanceDir(spec.instanceId);
    this.claiming = spare.pid;
    try {
      mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      renameSync(spare.dir, dir);
      await applyInstanceSettings({
        host: this.d.address, port: spec.port, current: { username: SPARE_USERS.internalUser, password: spare.password },
        settings: { memoryMb: spec.memoryMb, durability: spec.durability, evictionPolicy: spec.evictionPolicy, fencing: spec.fencing, credentials },
      });
      if (this.closing) throw new Error('the agent is stopping');
      rmSync(path.join(dir, 'spare.json'), { force: true });
      this.d.registry.put({ spec, credentials, usersDigest: usersDigestOf(credentials) });
      this.writeConfig(spec, credentials);
      this.runtime.set(spec.instanceId, fresh(spare.pid, 'running'));
      this.d.log.info({ instanceId: spec.instanceId, pid: spare.pid, port: spec.port }, 'claimed warm spare');
      this.d.onChange();
      return true;
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message, port: spec.port }, 'could not claim spare; starting a fresh engine');
      await this.kill(spare.pid);
      rmSync(existsSync(dir) ? dir : spare.dir, { recursive: true, force: true });
      if (this.closing) throw err;
      return false;
    } finally {
      this.claiming = null;
    }
  }

  private pidFile(instanceId: string): string {
    return path.join(this.d.registry.instanceDir(instanceId), 'redis.pid');
  }

  private async start(instanceId: string): Promise<void> {
    if (this.closing) {
      // A start asked for before the stop began (its checks awaited meanwhile) ends here, recorded as stopped.
      const rt = this.runtime.get(instanceId) ?? fresh(null, 'stopped');
      rt.state = 'stopped';
      rt.lastError = 'the agent is stopping: engine not started';
      if (this.d.registry.get(instanceId)) this.runtime.set(instanceId, rt);
      throw new Error(rt.lastError);
    }
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
    let spawned = false;
    try {
      // Its own engine still running (a stale pid file): adopt it. A stranger on its ports: say who, start nothing.
      const own = await this.runningEngine(instanceId, rec.spec);
      if (own) {
        rt.pid = own;
        rt.state = 'running';
        rt.lastError = null;
        rt.crashedAt = null;
        rmSync(path.join(dir, CRASH_MARK), { force: true });
        this.d.log.info({ instanceId, pid: own, port: rec.spec.port }, 'adopted running engine');
        return;
      }
      await this.refuseTakenPort(rec.spec.port);
      if (this.closing) throw new Error('the agent is stopping');
      const child = spawn(this.engineBinary(rec.spec), [path.join(dir, 'redis.conf')], { cwd: dir, detached: true, stdio: ['ignore', out, out] });
      spawned = true;
      const pid = child.pid;
      if (pid) this.children.add(pid);
      child.once('exit', () => {
        exited = true;
        if (pid) this.children.delete(pid);
        // Our own child: the exit is known at once, no polling delay.
        if (rt.pid === child.pid && rt.state === 'running') this.crashed(instanceId, rt);
      });
      child.once('error', (err) => { exited = true; rt.lastError = err.message; });
      child.unref();
      rt.pid = child.pid ?? null;
      await waitForRedis(this.d.address, rec.spec.port, 10_000, () => exited, internalLogin(rec.credentials).tls);
      if (this.closing) throw new Error('the agent is stopping');
      rt.state = 'running';
      rt.lastError = null;
      rt.crashedAt = null;
      rmSync(path.join(dir, CRASH_MARK), { force: true });
      this.servedCertificateLoaded(instanceId);
      this.d.log.info({ instanceId, pid: rt.pid, port: rec.spec.port }, 'engine started');
    } catch (err) {
      rt.state = this.closing ? 'stopped' : 'crashed';
      rt.lastError = this.closing ? 'the agent is stopping: engine not started' : `${(err as Error).message}${spawned ? this.logTail(dir) : ''}`;
      rt.nextRestartAt = Date.now() + rt.backoffMs;
      rt.backoffMs = Math.min(rt.backoffMs * 2, MAX_BACKOFF);
      throw new Error(rt.lastError);
    } finally {
      closeSync(out);
      this.d.onChange();
    }
  }

  /**
   * redis-server would exit with "Address already in use" on a port (or its
   * cluster bus port) that another process listens on: name that process.
   */
  private async refuseTakenPort(port: number): Promise<void> {
    for (const p of [port, port + 10000]) {
      const holder = (await portHoldersIfListening(this.d.address, p))[0];
      if (!holder) continue;
      const who = holder.process ? describeProcess(holder.process) : 'a process this user cannot inspect';
      throw new Error(`${holder.address}:${p} is in use by ${who}: not starting redis-server on ${this.d.address}:${port}`);
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
    if (rt.state !== 'running' || this.detached || this.closing) return;
    rt.state = 'crashed';
    rt.restarts++;
    rt.crashedAt = Date.now();
    // Kept on disk, so an agent that dies before the control plane answers still knows when.
    this.writeMark(path.join(this.d.registry.instanceDir(id), CRASH_MARK), rt.crashedAt);
    rt.lastError = `redis-server (pid ${rt.pid}) exited unexpectedly${this.logTail(this.d.registry.instanceDir(id))}`;
    rt.nextRestartAt = Date.now() + rt.backoffMs;
    rt.backoffMs = Math.min(rt.backoffMs * 2, MAX_BACKOFF);
    if (this.d.registry.get(id)?.lastRole === 'primary') this.hold(id, rt, 'primary exited');
    // Promoted since its last report (its cluster file says so): a primary all the same.
    else if (this.savedAsPrimary(id)) this.hold(id, rt, 'primary exited (promoted since its last report)');
    else this.d.log.warn({ instanceId: id, restarts: rt.restarts }, 'engine crashed; restarting with backoff');
    this.d.onChange();
  }

  /**
   * Crash detection for adopted engines (every tick) and restarts (with backoff) of crashed replicas. Our own
   * children report their exit themselves (the `exit` event): they are checked only once a second, in case.
   */
  private async watch(): Promise<void> {
    if (this.closing) return;
    const now = Date.now();
    const everyEngine = now - this.lastFullCheck >= FULL_CHECK_MS;
    if (everyEngine) this.lastFullCheck = now;
    for (const rec of this.d.registry.all()) {
      const id = rec.spec.instanceId;
      const rt = this.runtime.get(id);
      if (!rt || rt.state === 'starting') continue;
      if (rt.state === 'running' && rt.pid && (everyEngine || !this.children.has(rt.pid)) && !isAlive(rt.pid)) this.crashed(id, rt);
    }
    this.markAlive();
    for (const rec of this.d.registry.all()) {
      const id = rec.spec.instanceId;
      const rt = this.runtime.get(id);
      if (!rt || rt.state === 'starting' || rt.held || this.closing) continue;
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
    if (pid && (!rec || onItsPort(pid, rec.spec))) await this.kill(pid);
    rmSync(this.d.registry.instanceDir(instanceId), { recursive: true, force: true });
    this.d.onChange();
  }

  /**
   * A restart asked for (a rolling restart): SIGTERM (redis-server writes its
   * append-only file and nodes.conf, then exits), then a start with the same
   * config, data directory and cluster identity. Not a crash: nothing is held
   * or marked. An engine not running is started.
   */
  async restart(instanceId: string): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    if (!rec) throw new Error(`instance ${instanceId} is not on this node`);
    const rt = this.runtime.get(instanceId);
    const pid = rt?.pid ?? readPid(this.pidFile(instanceId));
    // A restart is for a running engine. One that died meanwhile crashed: held if it was a primary (started here it
    // could come back empty still claiming its slots), and in any case for healing to deal with.
    if (rt?.state === 'running' && !(pid && onItsPort(pid, rec.spec))) this.crashed(instanceId, rt);
    if (rt && rt.state !== 'running') throw new Error(`instance ${instanceId} is not running (${rt.state}${rt.held ? ', held' : ''}): not restarted; healing deals with it`);
    // 'starting' before the exit: the exit handler and the watch take it for ours, not a crash.
    if (rt) rt.state = 'starting';
    this.d.onChange();
    if (pid && onItsPort(pid, rec.spec)) await this.kill(pid);
    this.d.log.info({ instanceId, pid, port: rec.spec.port }, 'engine stopped for a restart');
    await this.start(instanceId);
  }

  /**
   * Fault injection (the "Failover under load" benchmark): kill -9 of a
   * running engine, exactly as a crash; the supervisor notices it the usual
   * way (exit event or watch) and the control plane heals the shard.
   */
  async crash(instanceId: string): Promise<void> {
    const rec = this.d.registry.get(instanceId);
    const rt = this.runtime.get(instanceId);
    if (!rec || !rt?.pid || rt.state !== 'running' || !onItsPort(rt.pid, rec.spec)) throw new Error(`instance ${instanceId} is not running on this node`);
    process.kill(rt.pid, 'SIGKILL');
  }

  private async kill(pid: number): Promise<void> {
    await stopProcesses([pid], ENGINE_STOP_GRACE_MS);
  }

  /**
   * Stops every engine, keeping data (used when the local pool shuts down):
   * registered ones, starts still in flight and a spare being claimed. From
   * now on no engine starts. Bounded: SIGTERM, SIGKILL after `graceMs`.
   * Returns the engines that needed SIGKILL.
   */
  async stopAll(graceMs = ENGINE_STOP_GRACE_MS): Promise<number[]> {
    this.closing = true;
    clearInterval(this.timer);
    const pids = new Set(this.children);
    if (this.claiming) pids.add(this.claiming);
    for (const rec of this.d.registry.all()) {
      const rt = this.runtime.get(rec.spec.instanceId);
      if (rt) rt.state = 'stopped';
      for (const pid of [rt?.pid, readPid(this.pidFile(rec.spec.instanceId))]) if (pid && onItsPort(pid, rec.spec)) pids.add(pid);
    }
    return stopProcesses(pids, graceMs);
  }

  /** SIGKILL to every engine this supervisor knows, at once (the agent's last resort when its stop overruns). */
  killAll(): void {
    this.closing = true;
    for (const pid of this.enginePids()) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    if (this.claiming) try { process.kill(this.claiming, 'SIGKILL'); } catch { /* gone */ }
  }

  detach(): void {
    this.detached = true;
    this.closing = true;
    clearInterval(this.timer);
  }
}

/** Which database users an engine started with or was given (the digest the control plane compares). */
const usersDigestOf = (c: EngineCredentials): string => databaseUsersDigest(c.databaseUsers ?? []);
