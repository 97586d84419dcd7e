import path from 'node:path';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { AgentTask, TaskKind, TaskPayload, TaskResult } from '@strata/api';
import { connectAdmin, forgetNodes, internalLogin, formCluster, joinAsReplica, meetAsPrimary, migrateSlots, promoteReplica, reconfigureInstance, reloadTlsFiles, repairOpenSlots } from '@strata/engine/redis-admin';
import { ControlPlaneError, type ControlPlaneClient } from './control-plane.client';
import type { EngineSupervisor } from './engine-supervisor';
import type { InstanceConnections } from './instance-connections';
import { runBenchmarkTask, type BenchmarkWorkerDeps } from './benchmark-worker';
import { runDiskProfile } from './disk-profile/disk-profile-runner';
import { backupShard } from './backup/backup-shard';
import { consistentStart } from './backup/consistent-start';
import { restoreKeys } from './backup/restore-keys';
import { openRdbSync, StorageCache } from '@strata/engine/backup';
import { backupProgressDetail, restoreProgressDetail } from '@strata/api';
import { LeaseWatch, type HeartbeatAnswer } from './lease-watch';
import { runKeyScan, runSlowLog } from './diagnostics';

/** What a running task can use besides its payload. */
interface TaskContext {
  taskId: string;
  /** 1 for the first lease of a task; more when an earlier holder's lease expired (e.g. the agent died). */
  attempt: number;
  /** Aborted when the control plane asks the task to stop at a safe point. */
  stop: AbortSignal;
}

/** Must stay well under the control plane's task lease. */
const HEARTBEAT_MS = 2_000;

/** Serializes work per key (an instance or a cluster) while different keys run in parallel. */
class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    this.tails.set(key, next);
    void next.finally(() => { if (this.tails.get(key) === next) this.tails.delete(key); }).catch(() => {});
    return next;
  }
}

/** Long-polls the control plane for tasks, runs them, heartbeats their lease and reports the outcome. */
export class TaskRunner {
  private readonly abort = new AbortController();
  private readonly lock = new KeyedLock();
  private readonly running = new Set<Promise<void>>();
  /** Backup storages opened by this agent, reused by its next backups. */
  private readonly storages = new StorageCache();

  constructor(
    private readonly d: { client: ControlPlaneClient; supervisor: EngineSupervisor; connections: InstanceConnections; log: Logger; onDone: () => void; migrateSlotsPerRound?: number; loadgen?: BenchmarkWorkerDeps['loadgen']; dataDir?: string; fio?: string; backupMaxBytesPerSec?: number;
      /** Restores into another layout: where temporary engines run (this node's address) and how fast they move keys. */
      restore?: { address: string; redisServer: string; maxKeysPerSec?: number } },
  ) {}

  async run(): Promise<void> {
    let backoff = 200;
    while (!this.abort.signal.aborted) {
      try {
        const task = await this.d.client.leaseTask(25_000, this.abort.signal);
        backoff = 200;
        if (task) {
          const p = this.execute(task).finally(() => this.running.delete(p));
          this.running.add(p);
        }
      } catch (err) {
        if (this.abort.signal.aborted) break;
        this.d.log.warn({ err: (err as Error).message }, 'task poll failed; retrying');
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  /**
   * Stops polling and gives running tasks a moment to finish. A task still
   * running after `graceMs` (e.g. forming a cluster that was deleted
   * meanwhile) is left to its lease: the control plane hands it out again.
   */
  async stop(graceMs = 3000): Promise<void> {
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((r) => { timer = setTimeout(r, graceMs); }),
    ]);
    clearTimeout(timer);
    if (this.running.size) this.d.log.warn({ running: this.running.size }, 'stopping with tasks still running; their leases will expire');
    // Storage clients close now, or (a backup still uploading) when its upload ends.
    this.storages.close();
  }

  private async execute(task: AgentTask): Promise<void> {
    const log = this.d.log.child({ taskId: task.id, kind: task.payload.kind, attempt: task.attempt });
    const stop = new AbortController();
    const lease = new LeaseWatch(Date.now(), task.payload.kind === 'migrate-slots');
    const heard = (a: HeartbeatAnswer) => {
      const why = lease.answer(a, Date.now());
      if (why && !stop.signal.aborted) {
        log.warn(why);
        stop.abort();
      }
    };
    const hb = setInterval(() => void this.d.client.heartbeat(task.id).then((r) => heard({ kind: 'renewed', stop: r.stop })).catch((err) => {
      log.warn({ err: err.message }, 'lease heartbeat failed');
      heard(err instanceof ControlPlaneError && (err.status === 404 || err.status === 409) ? { kind: 'refused' } : { kind: 'unanswered' });
    }), HEARTBEAT_MS);
    const started = Date.now();
    let outcome: { outcome: 'succeeded' | 'failed'; error?: string; result?: TaskResult };
    try {
      const result = await this.lock.run(lockKey(task.payload), () => this.perform(task.payload, log, { taskId: task.id, attempt: task.attempt, stop: stop.signal }));
      outcome = { outcome: 'succeeded', ...(result ? { result } : {}) };
      log.info({ ms: Date.now() - started }, 'task succeeded');
    } catch (err) {
      outcome = { outcome: 'failed', error: (err as Error).message };
      log.warn({ error: outcome.error, stack: (err as Error).stack?.split('\n').slice(1, 6).join(' | '), command: (err as { command?: { name?: string; args?: unknown[] } }).command?.name }, 'task failed');
    } finally {
      clearInterval(hb);
    }
    this.d.onDone();
    for (let i = 0; i < 5; i++) {
      try {
        await this.d.client.complete(task.id, outcome);
        return;
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'could not report task outcome; retrying');
        await new Promise((r) => setTimeout(r, 500 * (i + 1)));
      }
    }
  }

  private perform(p: TaskPayload, log: Logger, t: TaskContext): Promise<TaskResult | void> {
    const handler = this.handlers[p.kind] as (p: TaskPayload, log: Logger, t: TaskContext) => Promise<TaskResult | void>;
    if (!handler) throw new Error(`this agent has no handler for tasks of kind "${p.kind}"`);
    return handler(p, log, t);
  }

  /** One handler per task kind: a kind added to the API without a handler here does not compile. */
  private readonly handlers: { [K in TaskKind]: (p: Extract<TaskPayload, { kind: K }>, log: Logger, t: TaskContext) => Promise<TaskResult | void> } = {
    benchmark: (p, log, t) => runBenchmarkTask(p, {
      report: (r) => this.d.client.benchmarkReport(t.taskId, r), log, stopping: this.abort.signal, killEngine: (id) => this.d.supervisor.crash(id), loadgen: this.d.loadgen,
    }),
    'disk-profile': (p, log, t) => runDiskProfile(p, {
      dataDir: this.d.dataDir ?? '.', fio: this.d.fio, report: (r) => this.d.client.diskProfileReport(t.taskId, r), log, attempt: t.attempt, stopping: this.abort.signal,
    }),
    'ensure-instance': (p) => this.d.supervisor.ensure(p.instance, p.credentials, p.seed, { dropClaims: p.dropClaims, release: p.release }),
    'backup-shard': async (p, log, t) => {
      let last = Promise.resolve();
      const login = internalLogin(p.credentials);
      const client = await this.d.connections.get(p.instanceId, p.port, login);
      return backupShard(p, {
        client,
        openSync: () => openRdbSync({ host: client.options.host!, port: p.port, ...login }),
        instanceDir: this.d.supervisor.instanceDir(p.instanceId), stop: t.stop, log: (msg) => log.info(msg), maxBytesPerSec: this.d.backupMaxBytesPerSec,
        openStorage: (ref, creds) => this.storages.get(ref, creds),
        progress: (bytes, total) => {
          last = last.then(() => this.d.client.progress(t.taskId, { progress: total ? Math.min(1, bytes / total) : 0, detail: backupProgressDetail(bytes, total) }))
            .catch((err) => log.warn({ err: (err as Error).message }, 'could not report backup progress'));
        },
      });
    },
    'import-shard': async (p, log, t) => {
      // The import's source is someone's running Redis: the same fetch as a backup's shard, from outside the cluster.
      const auth = { username: p.source.username, password: p.sourcePassword };
      // No password: no AUTH at all (ioredis sends none for empty credentials).
      const client = await connectAdmin({ host: p.source.host, port: p.source.port, username: auth.username ?? '', password: auth.password ?? '' }, 5000);
      let last = Promise.resolve();
      try {
        return await backupShard({ ...p, instanceId: p.backupId, port: p.source.port }, {
          client,
          openSync: () => openRdbSync({ host: p.source.host, port: p.source.port, ...auth }),
          instanceDir: path.join(this.d.dataDir ?? '.', 'import-scratch'), stop: t.stop, log: (msg) => log.info(msg), maxBytesPerSec: this.d.backupMaxBytesPerSec, checkDatabases: true,
          progress: (bytes, total) => {
            last = last.then(() => this.d.client.progress(t.taskId, { progress: total ? Math.min(1, bytes / total) : 0, detail: backupProgressDetail(bytes, total) }))
              .catch((err) => log.warn({ err: (err as Error).message }, 'could not report import progress'));
          },
        });
      } finally {
        client.disconnect();
      }
    },
    'backup-consistent-start': async (p) => {
      const conns: Redis[] = [];
      try {
        return await consistentStart(p, {
          connect: async (host, port) => {
            const c = await connectAdmin({ host, port, ...internalLogin(p.credentials) }, 5000);
            conns.push(c);
            return c;
          },
        });
      } finally {
        for (const c of conns) c.disconnect();
      }
    },
    'restore-keys': async (p, log, t) => {
      if (!this.d.restore || !this.d.dataDir) throw new Error('this agent cannot run temporary engines (no data directory or redis-server configured)');
      let last = Promise.resolve();
      let lastAt = 0;
      const r = await restoreKeys(p, {
        dataDir: this.d.dataDir, address: this.d.restore.address, redisServer: this.d.restore.redisServer, maxKeysPerSec: this.d.restore.maxKeysPerSec,
        stop: t.stop, log,
        progress: (done, total) => {
          // At most one report a half second, one in flight; a lost one is superseded by the next.
          const now = Date.now();
          if (now - lastAt < 500 && done < total) return;
          lastAt = now;
          last = last.then(() => this.d.client.progress(t.taskId, { progress: total ? done / total : 1, detail: restoreProgressDetail(done, total) }))
            .catch((err) => log.warn({ err: (err as Error).message }, 'could not report restore progress'));
        },
      });
      await last;
      return r;
    },
    slowlog: (p) => runSlowLog(p, { connections: this.d.connections }),
    'key-scan': (p, log, t) => runKeyScan(p, {
      connections: this.d.connections, stop: t.stop, log,
      progress: (r) => this.d.client.progress(t.taskId, r),
    }),
    'remove-instance': (p) => this.d.supervisor.remove(p.instanceId),
    'restart-instance': (p) => this.d.supervisor.restart(p.instanceId),
    'form-cluster': (p, log) => formCluster({
      shards: p.shards, ...internalLogin(p.credentials),
      timeoutMs: 30_000, log: (msg) => log.debug(msg),
    }),
    failover: async (p, log) => {
      const client = await this.d.connections.get(p.instanceId, p.port, internalLogin(p.credentials));
      const r = await promoteReplica(client, p.mode, { log: (msg) => log.info(msg) });
      return { kind: 'failover', mode: r.mode, promotedAt: r.promotedAt };
    },
    'join-replica': async (p) => {
      const client = await this.d.connections.get(p.instanceId, p.port, internalLogin(p.credentials));
      await joinAsReplica(client, p.primary);
    },
    'forget-nodes': (p) => forgetNodes({ members: p.members, ...internalLogin(p.credentials) }),
    'sync-users': (p) => this.d.supervisor.syncUsers(p.instanceId, p.credentials),
    'renew-certificate': (p, log) => {
      log.info({ instanceId: p.instanceId, replaces: p.replaces }, 'renewing the instance certificate');
      return this.d.supervisor.renewCertificate(p.instanceId, p.credentials);
    },
    'sync-trust': (p) => this.d.supervisor.syncTrust(p.instanceId, p.credentials),
    'tls-switch': async (p, log) => {
      const r = await this.d.supervisor.switchTls(p);
      log.info({ instanceId: p.member.instanceId, direction: p.direction, stage: p.stage, applied: r.applied }, 'TLS switch stage done on the instance');
    },
    'configure-instance': async (p) => {
      this.d.supervisor.updateSpec(p.instance, p.credentials);
      const client = await this.d.connections.get(p.instance.instanceId, p.instance.port, internalLogin(p.credentials));
      await reconfigureInstance(client, p.instance);
      // The task brought a fresh certificate (written by updateSpec): the engine takes it without a restart.
      if (p.credentials.tls?.instanceCertificate) {
        await reloadTlsFiles(client);
        this.d.supervisor.servedCertificateLoaded(p.instance.instanceId);
      }
    },
    'meet-primary': async (p) => {
      const creds = internalLogin(p.credentials);
      const client = await this.d.connections.get(p.instanceId, p.port, creds);
      const seed = await connectAdmin({ host: p.seed.host, port: p.seed.port, ...creds }, 5000);
      try {
        await meetAsPrimary(client, p.seed, seed);
      } finally {
        seed.disconnect();
      }
    },
    'migrate-slots': async (p, log, t) => {
      let last = Promise.resolve();
      const r = await migrateSlots({
        targets: p.targets, primaries: p.primaries, ...internalLogin(p.credentials),
        shouldStop: () => t.stop.aborted, log: (msg) => log.info(msg), priority: p.priority,
        pace: this.d.migrateSlotsPerRound ? { slotsPerRound: this.d.migrateSlotsPerRound } : undefined,
        onProgress: (m) => {
          // One report in flight at a time; a lost one is superseded by the next.
          last = last.then(() => this.d.client.progress(t.taskId, {
            progress: m.slotsTotal ? m.slotsDone / m.slotsTotal : 1,
            detail: `${m.slotsDone}/${m.slotsTotal} slots, ${m.keysMoved} keys`, migration: m,
          })).catch((err) => log.warn({ err: (err as Error).message }, 'could not report migration progress'));
        },
      });
      await last;
      const members = [...p.primaries, ...p.targets];
      const final = r.final?.flatMap((f) => {
        const m = members.find((x) => x.host === f.host && x.port === f.port);
        return m ? [{ instanceId: m.instanceId, slotsOwned: f.slotsOwned, openSlots: f.openSlots }] : [];
      });
      return { kind: 'migrate-slots', ...r, final };
    },
    'repair-slots': async (p, log) => ({
      kind: 'repair-slots',
      repaired: await repairOpenSlots({
        primaries: p.primaries, ...internalLogin(p.credentials), log: (msg) => log.info(msg),
      }),
    }),
  };
}

const lockKey = (p: TaskPayload): string => {
  switch (p.kind) {
    case 'benchmark':
      return `benchmark:${p.benchmarkId}`;
    case 'disk-profile':
      return `disk-profile:${p.profileId}`;
    case 'backup-shard':
      return `backup:${p.backupId}:${p.shard}`;
    case 'backup-consistent-start':
      return `backup:${p.backupId}`;
    case 'import-shard':
      return `backup:${p.backupId}:${p.shard}`;
    case 'slowlog':
      // Reads beside anything else (a migration holds the cluster's key for minutes).
      return `slowlog:${p.clusterId}`;
    case 'key-scan':
      return `key-scan:${p.scanId}:${p.shard}`;
    case 'restore-keys':
      return `restore-keys:${p.clusterId}:${p.backupShard}`;
    case 'form-cluster':
    case 'repair-slots':
    case 'migrate-slots':
    case 'forget-nodes':
      return `cluster:${p.clusterId}`;
    case 'ensure-instance':
    case 'configure-instance':
      return `instance:${p.instance.instanceId}`;
    case 'tls-switch':
      return `instance:${p.member.instanceId}`;
    case 'meet-primary':
    case 'sync-users':
    case 'renew-certificate':
    case 'sync-trust':
    case 'remove-instance':
    case 'restart-instance':
    case 'failover':
    case 'join-replica':
      return `instance:${p.instanceId}`;
  }
};
