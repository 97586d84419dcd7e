/**
 * Drives running backups, level-triggered from what is stored (a restarted
 * control plane picks up where the last one was): each shard's snapshot is
 * a `backup-shard` task on the agent of the instance chosen for it
 * (`planBackupSources`: an in-sync replica, else the primary); a failed
 * task is tried again, on the instance chosen then, up to `maxAttempts`;
 * once every shard's file is stored the manifest is written, last, and the
 * backup is completed. A backup that cannot finish fails with the reason
 * and no manifest is ever written; its objects (and unfinished multipart
 * uploads) are removed once none of its tasks still runs.
 *
 * A consistent backup first runs one `backup-consistent-start` task (the
 * write pause, every source's BGSAVE); each shard's task then waits for
 * that snapshot on the instance it was started on.
 */
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { ENGINE_VERSIONS, LIMITS, type BackupManifest, type BackupShardResult } from '@strata/api';
import { DEFAULT_MIGRATION_PRIORITY } from '@strata/engine';
import { isRdbDatabasesError, isRdbVersionError, isStorageError, planBackupSources, type BackupSource } from '@strata/engine/backup';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskRow, TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { memberObservation } from '../observed/instance-health';
import { eventKey, taskKey } from '../reconciler/dedupe-keys';
import type { EventStore, NewClusterEvent } from '../stores/event.store';
import { backupCompletedEvent, backupFailedEvent } from './backup-events';
import { sweepOpenUploads } from './open-upload-sweep';
import type { BackupRow, BackupStore, ImportSource } from './backup.store';
import type { BackupStorageStore } from './backup-storage.store';

export interface BackupCoordinatorDeps {
  store: BackupStore;
  storage: BackupStorageStore;
  /** Retention by age of a cluster's backups (its schedule's keepDays), applied when one completes. */
  keepDays?: (clusterId: string) => Promise<number | null>;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  notifyNode: (nodeId: string) => void;
  log: Logger;
  /** The cluster's Activity: backup-completed and backup-failed events. */
  events?: Pick<EventStore, 'record'>;
  /** Is this node down (node-liveness.ts)? A shard's task it holds is taken back and handed to another copy. */
  nodeDown?: (nodeId: string) => boolean;
  /** Runs of one shard's task before the backup fails. */
  maxAttempts?: number;
  intervalMs?: number;
  /** An upload not touched by its process for this long died mid-upload (default 60 s). */
  uploadStaleMs?: number;
  /** Consistent backups: the longest write pause before it ends by itself. */
  pauseTimeoutMs?: number;
  /** How often unfinished multipart uploads no running backup owns are aborted (open-upload-sweep.ts; also at start). Default 10 minutes. */
  openUploadSweepMs?: number;
}

export const manifestKey = (backupId: string) => `${backupId}/manifest.json`;
export const shardKey = (backupId: string, shard: number) => `${backupId}/shard-${shard}.rdb`;

export class BackupCoordinator {
  private timer: NodeJS.Timeout | undefined;
  private uploadSweepTimer: NodeJS.Timeout | undefined;
  private busy = false;
  /** A pass was asked for while one ran (a task ended meanwhile): another runs right after. */
  private again = false;

  constructor(private readonly d: BackupCoordinatorDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.d.intervalMs ?? 1000);
    this.timer.unref();
    // At start first: what a control plane killed mid-upload left open is aborted without waiting.
    void this.sweepOpenUploads();
    this.uploadSweepTimer = setInterval(() => void this.sweepOpenUploads(), this.d.openUploadSweepMs ?? 10 * 60_000);
    this.uploadSweepTimer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.uploadSweepTimer) clearInterval(this.uploadSweepTimer);
  }

  /** Aborts the unfinished multipart uploads no running backup owns (open-upload-sweep.ts); the keys aborted. */
  sweepOpenUploads(): Promise<string[]> {
    return sweepOpenUploads(this.d).catch((err) => {
      this.d.log.warn({ err }, 'unfinished upload sweep failed');
      return [];
    });
  }

  /** One pass over every running backup (also called right after a backup starts and when a task ends). */
  async tick(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        for (const b of await this.d.store.running()) {
          await this.drive(b).catch((err) => this.d.log.error({ err, backupId: b.id }, 'backup pass failed'));
        }
        for (const b of await this.d.store.unswept()) {
          await this.sweep(b).catch((err) => this.d.log.warn({ err, backupId: b.id }, 'could not remove a failed backup\'s files'));
        }
      } while (this.again);
    } finally {
      this.busy = false;
    }
  }

  /** The newest task of each shard of a backup. */
  async shardTasks(b: BackupRow): Promise<Map<number, TaskRow>> {
    const all = await this.d.tasks.latestByKey(b.clusterId, null);
    const out = new Map<number, TaskRow>();
    for (const s of b.shards) {
      const t = all.get(taskKey({ kind: 'backup-shard', backupId: b.id, shard: s.shard }));
      if (t) out.set(s.shard, t);
    }
    return out;
  }

  /** Whether any task of the backup is pending or running. */
  async hasTaskRunning(b: BackupRow): Promise<boolean> {
    const all = await this.d.tasks.latestByKey(b.clusterId, null);
    const keys = [taskKey({ kind: 'backup-consistent-start', backupId: b.id }), ...b.shards.map((s) => taskKey({ kind: 'backup-shard', backupId: b.id, shard: s.shard }))];
    return keys.some((k) => ['pending', 'leased'].includes(all.get(k)?.state ?? ''));
  }

  /** A failed backup's objects go once no task of it can still write. */
  private async sweep(b: BackupRow): Promise<void> {
    if (await this.hasTaskRunning(b)) return;
    await (await this.d.storage.open(b.storage)).deletePrefix(b.id);
    await this.d.store.markFilesRemoved(b.id);
  }

  private async drive(b: BackupRow): Promise<void> {
    // An upload is driven by the request streaming it; one whose process died is failed here.
    if (b.trigger === 'upload') {
      if (await this.d.store.uploadIsStale(b.id, this.d.uploadStaleMs ?? 60_000)) {
        await this.fail(b, 'upload_interrupted', 'the control plane receiving the file stopped (a crash or restart) before the whole file arrived; what was stored of it is removed');
      }
      return;
    }
    if (!b.importSource) {
      const cluster = await this.d.clusters.get(b.clusterId);
      if (!cluster) return void await this.fail(b, 'cluster_deleted', 'the cluster was deleted while the backup ran');
      if (b.consistent && !b.consistentStart) return this.driveStart(b);
    }
    const tasks = await this.shardTasks(b);
    const done: { shard: number; task: TaskRow; result: BackupShardResult }[] = [];
    const todo: number[] = [];
    for (const s of b.shards) {
      const t = await this.takenBackFromDownNode(tasks.get(s.shard), s.shard);
      if (t?.state === 'succeeded' && t.result?.kind === 'backup-shard') { done.push({ shard: s.shard, task: t, result: t.result }); continue; }
      if (t && (t.state === 'pending' || t.state === 'leased')) continue;
      if (t?.state === 'failed') {
        // A file the engine here cannot load (or with keys outside database 0) fails the backup at once: another try fetches the same.
        if (t.error && isRdbVersionError(t.error)) return void await this.fail(b, 'rdb_version_unsupported', `shard ${s.shard + 1}: ${t.error.slice(t.error.indexOf('rdb_version_unsupported: ') + 25)}`);
        if (t.error && isRdbDatabasesError(t.error)) return void await this.fail(b, 'rdb_databases_unsupported', `shard ${s.shard + 1}: ${t.error.slice(t.error.indexOf('rdb_databases_unsupported: ') + 27)}`);
        const failures = await this.d.tasks.countFailures(b.clusterId, null, taskKey({ kind: 'backup-shard', backupId: b.id, shard: s.shard }));
        if (failures >= (this.d.maxAttempts ?? 3)) {
          const why = t.error ?? 'the snapshot failed';
          const code = isStorageError(why) ? 'storage_failed' : b.importSource ? 'import_failed' : 'snapshot_failed';
          return void await this.fail(b, code, `shard ${s.shard + 1}: ${why} (${failures} attempts)`);
        }
      }
      todo.push(s.shard);
    }
    if (todo.length) return b.importSource ? this.enqueueImport(b, b.importSource, todo) : this.enqueue(b, todo);
    if (done.length === b.shards.length) await (b.importSource ? this.completeImport(b, b.importSource, done) : this.complete(b, done));
  }

  /**
   * A shard's task held by a node that went down (its host died, or it is cut off) is taken back: failed, naming the
   * node, so it counts as one attempt and the next goes to a copy on a live node (or, for an import, another agent).
   * Left alone it would wait for that node for good, and the backup with it.
   */
  private async takenBackFromDownNode(t: TaskRow | undefined, shard: number): Promise<TaskRow | undefined> {
    const downNode = async (id: string) => (this.d.nodeDown?.(id) ? { name: (await this.d.nodes.list()).find((n) => n.id === id)?.name ?? id } : null);
    const row = await this.d.tasks.takeBackFromDownNode(t, downNode, (node) => `node ${node.name} went down while it ran the backup of shard ${shard + 1}`);
    if (row && row !== t) this.d.log.warn({ backupShard: shard, nodeId: row.nodeId }, 'took a backup task back from a node that went down');
    return row;
  }

  /** An import's shards: each fetched by an agent that reports (spread over them), straight from the source's primary. */
  private async enqueueImport(b: BackupRow, src: ImportSource, shards: number[]): Promise<void> {
    const nodes = (await this.d.nodes.list()).filter((n) => this.d.observed.lastReportAt(n.id) !== null && !this.d.nodeDown?.(n.id)).sort((x, y) => x.id.localeCompare(y.id));
    if (!nodes.length) return;
    for (const shard of shards) {
      const node = nodes[shard % nodes.length]!;
      const from = src.shards[shard]!;
      const inserted = await this.d.tasks.enqueue({
        nodeId: node.id, clusterId: b.clusterId, operationId: null, dedupeKey: taskKey({ kind: 'backup-shard', backupId: b.id, shard }),
        request: {
          kind: 'import-shard', backupId: b.id, clusterId: b.clusterId, shard, source: { host: from.host, port: from.port, ...(src.username ? { username: src.username } : {}) },
          storage: b.storage, key: b.shards.find((s) => s.shard === shard)!.key,
        },
      });
      if (inserted) this.d.notifyNode(node.id);
    }
  }

  /** An import's manifest: the source's primaries as shards, a spec that holds them (no replicas), the memory each used. */
  private async completeImport(b: BackupRow, src: ImportSource, done: { shard: number; task: TaskRow; result: BackupShardResult }[]): Promise<void> {
    const shards = done.sort((x, y) => x.shard - y.shard).map(({ shard, result: r }) => ({
      shard, slots: src.shards[shard]!.slots, file: b.shards.find((s) => s.shard === shard)!.key,
      bytes: r.bytes, sha256: r.sha256, keys: r.keys, keysWithExpiry: r.keysWithExpiry, usedMemoryBytes: r.usedMemoryBytes,
      source: { instanceId: b.id, role: 'primary' as const, address: `${src.shards[shard]!.host}:${src.shards[shard]!.port}` },
      snapshotAt: r.snapshotAt, finishedAt: r.finishedAt,
    }));
    await this.writeManifest(b, externalManifest(b, shards, done[0]?.result.engineVersion ?? src.engineVersion), null);
  }

  /**
   * An uploaded file, stored whole: its manifest (one shard owning every slot) is written and the
   * backup completed. False when it was no longer running (it was cancelled, or judged stale).
   */
  async completeUpload(b: BackupRow, f: { bytes: number; sha256: string; keys: number; keysWithExpiry: number; usedMemoryBytes: number; engineVersion: string }): Promise<boolean> {
    const at = new Date().toISOString();
    const shard = {
      shard: 0, slots: [{ start: 0, end: 16383 }], file: b.shards[0]!.key, bytes: f.bytes, sha256: f.sha256, keys: f.keys, keysWithExpiry: f.keysWithExpiry,
      usedMemoryBytes: f.usedMemoryBytes, source: { instanceId: b.id, role: 'primary' as const, address: 'upload' }, snapshotAt: b.createdAt.toISOString(), finishedAt: at,
    };
    if ((await this.d.store.get(b.id))?.status !== 'running') return false;
    await this.writeManifest(b, externalManifest(b, [shard], f.engineVersion), null);
    return (await this.d.store.get(b.id))?.status === 'completed';
  }

  /** The manifest last (a backup without one is never complete), then the backup is completed. */
  private async writeManifest(b: BackupRow, manifest: BackupManifest, keepDays: number | null): Promise<void> {
    await (await this.d.storage.open(b.storage)).put(manifestKey(b.id), Readable.from([Buffer.from(JSON.stringify(manifest, null, 2))]));
    if (await this.d.store.finish(b.id, { status: 'completed', manifest, keepDays })) {
      this.d.log.info({ backupId: b.id, clusterId: b.clusterId, bytes: manifest.shards.reduce((s, x) => s + x.bytes, 0), skewMs: manifest.skewMs }, 'backup completed');
      if (b.trigger === 'manual' || b.trigger === 'schedule') await this.recordEvent(b, backupCompletedEvent(b.id, b.trigger, manifest));
    }
  }

  private async sources(b: BackupRow) {
    const [instances, nodes] = await Promise.all([this.d.clusters.instances(b.clusterId), this.d.nodes.list()]);
    const members = instances.map((i) => ({
      id: i.id, shard: i.shardIndex, role: i.role, engineId: i.engineId ?? null, obs: memberObservation(this.d.observed.instance(i.id, i.nodeId)),
    }));
    // A consistent backup's shards stay on the instances their snapshots were started on.
    const sources: BackupSource[] = b.consistentStart
      ? b.consistentStart.shards.map((s) => ({ shard: s.shard, instanceId: s.instanceId, role: instances.find((i) => i.id === s.instanceId)?.role ?? 'replica' }))
      : planBackupSources(members, Math.max(...b.shards.map((s) => s.shard)) + 1);
    return { instances, nodes, sources };
  }

  /** A consistent backup's start: one task on the agent of the first shard's primary; tried again up to `maxAttempts`. */
  private async driveStart(b: BackupRow): Promise<void> {
    const key = taskKey({ kind: 'backup-consistent-start', backupId: b.id });
    const t = (await this.d.tasks.latestByKey(b.clusterId, null)).get(key);
    if (t?.state === 'succeeded' && t.result?.kind === 'backup-consistent-start') {
      await this.d.store.setConsistentStart(b.id, t.result);
      this.d.log.info({ backupId: b.id, writePauseMs: t.result.writePauseMs }, 'consistent backup started');
      return this.drive({ ...b, consistentStart: t.result });
    }
    if (t && (t.state === 'pending' || t.state === 'leased')) return;
    if (t?.state === 'failed') {
      const failures = await this.d.tasks.countFailures(b.clusterId, null, key);
      if (failures >= (this.d.maxAttempts ?? 3)) return void await this.fail(b, 'consistent_start_failed', `${t.error ?? 'the write pause failed'} (${failures} attempts)`);
    }
    const { instances, nodes, sources } = await this.sources(b);
    const shards = [];
    for (const src of sources) {
      if (src.instanceId === null) return void await this.fail(b, 'no_source', src.reason);
      const inst = instances.find((i) => i.id === src.instanceId)!;
      const primary = instances.find((i) => i.shardIndex === src.shard && i.role === 'primary');
      const addr = (nodeId: string) => nodes.find((n) => n.id === nodeId)?.address;
      if (!primary || !addr(primary.nodeId) || !addr(inst.nodeId)) return void await this.fail(b, 'no_source', `shard ${src.shard + 1}: its primary or its node is unknown`);
      shards.push({
        shard: src.shard, primary: { host: addr(primary.nodeId)!, port: primary.port, nodeId: primary.nodeId },
        source: { instanceId: inst.id, host: addr(inst.nodeId)!, port: inst.port, role: src.role },
      });
    }
    const runner = shards[0]!.primary.nodeId;
    const inserted = await this.d.tasks.enqueue({
      nodeId: runner, clusterId: b.clusterId, operationId: null, dedupeKey: key,
      request: {
        kind: 'backup-consistent-start', backupId: b.id, clusterId: b.clusterId, pauseTimeoutMs: this.d.pauseTimeoutMs ?? 2000,
        shards: shards.map((s) => ({ shard: s.shard, primary: { host: s.primary.host, port: s.primary.port }, source: s.source })),
      },
    });
    if (inserted) this.d.notifyNode(runner);
  }

  private async enqueue(b: BackupRow, shards: number[]): Promise<void> {
    const { instances, nodes, sources } = await this.sources(b);
    for (const shard of shards) {
      const src = sources[shard]!;
      if (src.instanceId === null) return void await this.fail(b, 'no_source', src.reason);
      const inst = instances.find((i) => i.id === src.instanceId)!;
      if (!nodes.some((n) => n.id === inst.nodeId)) return void await this.fail(b, 'no_source', `shard ${shard + 1}: the node of its instance is unknown`);
      const inserted = await this.d.tasks.enqueue({
        nodeId: inst.nodeId, clusterId: b.clusterId, operationId: null, dedupeKey: taskKey({ kind: 'backup-shard', backupId: b.id, shard }),
        request: {
          kind: 'backup-shard', backupId: b.id, clusterId: b.clusterId, instanceId: inst.id, port: inst.port, shard,
          storage: b.storage, key: b.shards.find((s) => s.shard === shard)!.key,
          ...(b.consistentStart ? { awaitSave: (({ savesBefore, snapshotAt }) => ({ savesBefore, snapshotAt }))(b.consistentStart.shards.find((s) => s.shard === shard)!) } : {}),
        },
      });
      if (inserted) this.d.notifyNode(inst.nodeId);
    }
  }

  private async complete(b: BackupRow, done: { shard: number; task: TaskRow; result: BackupShardResult }[]): Promise<void> {
    const [cluster, shardRows, instances, nodes] = await Promise.all([
      this.d.clusters.get(b.clusterId), this.d.clusters.shards(b.clusterId), this.d.clusters.instances(b.clusterId), this.d.nodes.list(),
    ]);
    if (!cluster) return void await this.fail(b, 'cluster_deleted', 'the cluster was deleted while the backup ran');
    const snapshots = done.map((x) => Date.parse(x.result.snapshotAt));
    const shards = done.sort((x, y) => x.shard - y.shard).map(({ shard, task, result: r }) => {
      const instanceId = String((task.payload as { instanceId: string }).instanceId);
      const inst = instances.find((i) => i.id === instanceId);
      const node = nodes.find((n) => n.id === task.nodeId);
      return {
        shard, slots: shardRows.find((s) => s.shardIndex === shard)?.slots ?? [], file: b.shards.find((s) => s.shard === shard)!.key,
        bytes: r.bytes, sha256: r.sha256, keys: r.keys, keysWithExpiry: r.keysWithExpiry, usedMemoryBytes: r.usedMemoryBytes,
        source: { instanceId, role: inst?.role ?? 'primary', address: `${node?.address ?? 'unknown'}:${inst?.port ?? 0}` },
        snapshotAt: r.snapshotAt, finishedAt: r.finishedAt,
      };
    });
    const manifest: BackupManifest = {
      formatVersion: 1, backupId: b.id, cluster: { id: cluster.id, name: cluster.name, spec: cluster.spec },
      engineVersion: done[0]?.result.engineVersion ?? 'unknown', consistent: b.consistent,
      startedAt: b.createdAt.toISOString(), finishedAt: new Date().toISOString(),
      skewMs: snapshots.length ? Math.max(...snapshots) - Math.min(...snapshots) : 0,
      writePauseMs: b.consistentStart?.writePauseMs ?? null, shards,
    };
    await this.writeManifest(b, manifest, await this.d.keepDays?.(b.clusterId) ?? null);
  }

  /** A backup's end on its cluster's Activity, once (a deleted cluster has no Activity: nothing is recorded). */
  private async recordEvent(b: BackupRow, e: NewClusterEvent): Promise<void> {
    if (!this.d.events || !(await this.d.clusters.get(b.clusterId))) return;
    await this.d.events.record({ id: b.clusterId, organizationId: b.organizationId }, e, eventKey({ type: 'backup-ended', backupId: b.id }))
      .catch((err) => this.d.log.warn({ err, backupId: b.id }, 'could not record the backup\'s event'));
  }

  /** Ends a running backup as failed (its files are swept once no task of it runs). False when it had already ended. */
  async fail(b: BackupRow, code: string, message: string): Promise<boolean> {
    if (!(await this.d.store.finish(b.id, { status: 'failed', error: { code, message } }))) return false;
    this.d.log.warn({ backupId: b.id, clusterId: b.clusterId, code, message }, 'backup failed');
    if (b.trigger === 'manual' || b.trigger === 'schedule') await this.recordEvent(b, backupFailedEvent(b.id, b.trigger, code, message));
    await this.sweep({ ...b, status: 'failed' }).catch((err) => this.d.log.warn({ err, backupId: b.id }, 'could not remove a failed backup\'s files yet'));
    return true;
  }
}

/** The manifest of a backup of no Strata cluster (an import, an upload): its files as shards, a spec that holds them (no replicas). */
function externalManifest(b: BackupRow, shards: BackupManifest['shards'], engineVersion: string): BackupManifest {
  const snapshots = shards.map((x) => Date.parse(x.snapshotAt));
  const memoryMbPerShard = Math.max(LIMITS.memoryMbPerShard.min, Math.ceil(Math.max(...shards.map((s) => s.usedMemoryBytes)) / (1024 * 1024)));
  const manifest: BackupManifest = {
    formatVersion: 1, backupId: b.id,
    cluster: {
      id: b.id, name: b.clusterName,
      spec: {
        shards: shards.length, replicasPerShard: 0, memoryMbPerShard, durability: 'none', evictionPolicy: 'noeviction',
        fencing: 'off', migrationPriority: DEFAULT_MIGRATION_PRIORITY, engineVersion: ENGINE_VERSIONS[0], maintenanceWindow: null, tls: 'off', tlsClientAuth: 'none',
      },
    },
    engineVersion, consistent: false,
    startedAt: b.createdAt.toISOString(), finishedAt: new Date().toISOString(),
    skewMs: snapshots.length ? Math.max(...snapshots) - Math.min(...snapshots) : 0, writePauseMs: null, shards,
  };
  return manifest;
}
