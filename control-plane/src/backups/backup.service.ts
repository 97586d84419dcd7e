/**
 * Starting a backup, showing one, and checking a backup before a cluster
 * is restored from it.
 */
import { randomUUID } from 'node:crypto';
import { parseBackupProgressDetail, type Backup, type CreateBackupRequest, type CreateClusterRequest, type ImportBackupRequest, type InstanceSeed } from '@strata/api';
import { checksumOf, planRestore, probeRedis, ProbeError, rdbDatabasesProblem, rdbVersionOfRedis, rdbVersionProblem, readRdbVersion, restoreMemoryNeededMb } from '@strata/engine/backup';
import type { SecretBox } from '../crypto/secret-box';
import { AppError, conflict, notFound, unprocessable, validationFailed } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import { shardKey, type BackupCoordinator } from './backup-coordinator';
import { publicBackup, type BackupRow, type BackupStore, type RestoreMode } from './backup.store';
import type { BackupStorageStore } from './backup-storage.store';

export interface BackupServiceDeps {
  store: BackupStore;
  clusters: ClusterStore;
  nodes: NodeStore;
  coordinator: BackupCoordinator;
  /** Where new backups are written (per organization). */
  storage: BackupStorageStore;
  /** Seals an import's source password. */
  box: SecretBox;
  /** How long an import's source may take to answer the first check. */
  probeTimeoutMs?: number;
}

/** 422 rdb_version_unsupported: `problem` from rdbVersionProblem, `what` the file or source it is about. */
export function rdbVersionUnsupported(problem: string, field: string, what: string): AppError {
  const message = `${what}: ${problem.replace(/^rdb_version_unsupported: /, '')}`;
  return unprocessable('rdb_version_unsupported', 'RDB version not supported', `${message}; nothing was stored or created.`, [{ field, message }]);
}

/** 422 rdb_databases_unsupported: `problem` from rdbDatabasesProblem, `what` the file or source it is about. */
export function rdbDatabasesUnsupported(problem: string, field: string, what: string): AppError {
  const message = `${what}: ${problem.replace(/^rdb_databases_unsupported: /, '')}`;
  return unprocessable('rdb_databases_unsupported', 'Keys outside database 0', `${message}; nothing was stored or created.`, [{ field, message }]);
}

const PROBE_CODES = { unreachable: 'import_unreachable', not_redis: 'import_not_redis', auth: 'import_auth_failed' } as const;

export class BackupService {
  constructor(private readonly d: BackupServiceDeps) {}

  async start(organizationId: string, clusterId: string, req: CreateBackupRequest, trigger: 'manual' | 'schedule' = 'manual'): Promise<BackupRow> {
    const cluster = await this.d.clusters.get(clusterId, organizationId);
    if (!cluster) throw notFound('Cluster');
    if (!['ready', 'degraded'].includes(cluster.status.phase)) {
      throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; backups are taken of a ready (or degraded) cluster.`);
    }
    if (cluster.spec.engineVersion === 'valkey-8') {
      // Valkey 8 writes RDB version 11; restores load files into Redis 7.0 engines, which read up to version 10.
      throw unprocessable('backup_engine_unsupported', 'Backups of this engine are not available',
        `Cluster ${cluster.name} runs Valkey 8, whose snapshots (RDB version 11) Strata cannot restore yet; nothing was started.`,
        [{ field: 'engineVersion', message: 'backups are taken of engineVersion 7 clusters' }]);
    }
    const id = randomUUID();
    const shards = Array.from({ length: cluster.spec.shards }, (_, shard) => ({ shard, key: shardKey(id, shard) }));
    const storage = await this.d.storage.refFor(organizationId);
    const inserted = await this.d.store.insert({ id, organizationId, clusterId, clusterName: cluster.name, consistent: req.consistent ?? false, storage, shards, trigger });
    if (!inserted) throw conflict('backup_in_progress', 'A backup of this cluster is already running; wait for it to finish.');
    void this.d.coordinator.tick();
    return (await this.d.store.get(id))!;
  }

  /**
   * Imports a running Redis (or every primary of a Redis Cluster) as a
   * backup. The source is checked first (reachable, a Redis, the
   * credentials accepted; a refusal stores nothing); then agents fetch one
   * RDB per primary over the replication protocol into the organization's
   * storage, and the manifest is written as for any backup.
   */
  async importFrom(organizationId: string, req: ImportBackupRequest): Promise<BackupRow> {
    const u = new URL(req.url);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = Number(u.port);
    const username = u.username ? decodeURIComponent(u.username) : undefined;
    const password = u.password ? decodeURIComponent(u.password) : undefined;
    let probed;
    try {
      probed = await probeRedis({ host, port, username, password, timeoutMs: this.d.probeTimeoutMs ?? 5000 });
    } catch (err) {
      if (!(err instanceof ProbeError)) throw err;
      throw unprocessable(PROBE_CODES[err.reason], 'The source cannot be imported', err.message, [{ field: 'url', message: err.message }]);
    }
    // A Redis newer than the engine here writes RDB files it cannot load: refused before anything is fetched.
    const rdbVersion = rdbVersionOfRedis(probed.version);
    const tooNew = rdbVersion === null ? null : rdbVersionProblem(rdbVersion);
    if (tooNew) throw rdbVersionUnsupported(tooNew, 'url', `Redis ${probed.version} writes RDB version ${rdbVersion}`);
    // Keys outside database 0 have no place in a cluster: refused before anything is fetched (and again while each file streams).
    const otherDatabases = rdbDatabasesProblem(probed.databases);
    if (otherDatabases) throw rdbDatabasesUnsupported(otherDatabases.replace('the file has', 'the source has'), 'url', `${u.host}`);
    const id = randomUUID();
    const url = `redis://${username ? `${encodeURIComponent(username)}@` : ''}${u.host}`;
    await this.d.store.insertImport({
      id, organizationId, clusterName: req.name ?? u.host, storage: await this.d.storage.refFor(organizationId),
      shards: probed.shards.map((_, shard) => ({ shard, key: shardKey(id, shard) })),
      source: { url, ...(username ? { username } : {}), shards: probed.shards, engineVersion: probed.version },
      secretEnc: password ? this.d.box.seal(password) : null,
    });
    void this.d.coordinator.tick();
    return (await this.d.store.get(id))!;
  }

  /** Cancels a running backup: it fails as `cancelled`, its agents stop at their next heartbeat, its files are removed. */
  async cancel(organizationId: string, id: string): Promise<BackupRow> {
    const b = await this.d.store.get(id, organizationId);
    if (!b) throw notFound('Backup');
    if (b.status !== 'running') throw conflict('invalid_state', `Backup ${b.id} is ${b.status}; only a running backup can be cancelled.`);
    if (b.trigger === 'upload') throw conflict('invalid_state', `Backup ${b.id} is an upload in progress; it ends with its request (abort the upload to stop it).`);
    await this.d.coordinator.fail(b, 'cancelled', 'cancelled by a user');
    return (await this.d.store.get(id))!;
  }

  /** Deletes a backup that is not running: its objects in the storage, then its record. */
  async delete(organizationId: string, id: string): Promise<void> {
    const b = await this.d.store.get(id, organizationId);
    if (!b) throw notFound('Backup');
    await this.remove(b);
  }

  /** Removes a backup's objects and record (a user's delete, or retention), under its lock: no restore of it starts meanwhile. */
  remove(b: BackupRow): Promise<void> {
    return this.d.store.whileLocked(b.id, () => this.removeLocked(b));
  }

  private async removeLocked(b: BackupRow): Promise<void> {
    if (b.status === 'running') {
      throw conflict('backup_running', `Backup ${b.id} is still running; cancel it first (POST /v1/backups/${b.id}/cancel) or wait for it to end.`);
    }
    if (await this.d.coordinator.hasTaskRunning(b)) throw conflict('backup_running', `Backup ${b.id} still has a task running on an agent; try again in a few seconds.`);
    // A restore reads the files until its cluster's create operation ends (seeds at first start, keys moved from temporary engines).
    const [reader] = await this.d.store.restoresReading(b.id);
    if (reader) {
      throw new AppError(409, 'backup_in_use', 'Backup in use',
        `Backup ${b.id} is being restored into cluster "${reader.clusterName}" (operation ${reader.operationId}); delete it once that operation has ended.`,
        undefined, { operationId: reader.operationId });
    }
    try {
      await (await this.d.storage.open(b.storage)).deletePrefix(b.id);
    } catch (err) {
      throw new AppError(502, 'storage_unavailable', 'Backup storage unavailable', `The backup's files could not be deleted: ${(err as Error).message}`);
    }
    await this.d.store.delete(b.id);
  }

  /** The API's view: each shard's progress from its task. */
  async view(b: BackupRow): Promise<Backup> {
    // A completed backup's shards are all in its manifest: only whether its cluster still exists is asked.
    if (b.manifest) {
      const m = b.manifest;
      const cluster = b.trigger === 'manual' || b.trigger === 'schedule' ? await this.d.clusters.get(b.clusterId) : null;
      return publicBackup(b, b.shards.map(({ shard }) => {
        const s = m.shards.find((x) => x.shard === shard);
        return s ? { shard, state: 'completed' as const, bytes: s.bytes, totalBytes: s.bytes, source: s.source.address } : { shard, state: 'completed' as const, bytes: null, totalBytes: null, source: null };
      }), !cluster);
    }
    const [tasks, instances, nodes, cluster] = await Promise.all([
      this.d.coordinator.shardTasks(b), this.d.clusters.instances(b.clusterId), this.d.nodes.list(), this.d.clusters.get(b.clusterId),
    ]);
    return publicBackup(b, b.shards.map(({ shard }) => {
      const t = tasks.get(shard);
      const fromManifest = b.manifest?.shards.find((s) => s.shard === shard);
      if (fromManifest) return { shard, state: 'completed' as const, bytes: fromManifest.bytes, totalBytes: fromManifest.bytes, source: fromManifest.source.address };
      const inst = t && instances.find((i) => i.id === (t.payload as { instanceId?: string }).instanceId);
      const node = inst && nodes.find((n) => n.id === inst.nodeId);
      const state = !t ? 'pending' as const
        : t.state === 'succeeded' ? 'completed' as const
        : t.state === 'failed' || b.status === 'failed' ? (b.status === 'failed' ? 'failed' as const : 'running' as const) : 'running' as const;
      const done = t?.result?.kind === 'backup-shard' ? t.result.bytes : null;
      const progress = parseBackupProgressDetail(t?.progressDetail);
      return {
        shard, state, bytes: done ?? progress?.bytes ?? (t ? 0 : null), totalBytes: done ?? progress?.total ?? null,
        source: inst ? `${node?.address ?? 'unknown'}:${inst.port}` : null,
      };
    }), !cluster);
  }

  /**
   * What a restore from `req.restoreFrom` needs, checked before anything is
   * created: a completed backup of this organization, enough memory per
   * shard, and every file whole (its SHA-256 is the manifest's). Returns the
   * files and how they are loaded: each seeds the new primary of its shard
   * (same layout), or its keys are moved by slot (any other layout).
   */
  async prepareRestore(organizationId: string, req: CreateClusterRequest & { restoreFrom: { backupId: string } }, memoryMbPerShard: number): Promise<{ backupId: string; files: InstanceSeed[]; mode: RestoreMode }> {
    const field = 'restoreFrom.backupId';
    const b = await this.d.store.get(req.restoreFrom.backupId, organizationId);
    if (!b) throw validationFailed([{ field, message: 'no backup with this id' }], 'The backup to restore from does not exist.');
    if (b.status !== 'completed' || !b.manifest) {
      throw unprocessable('backup_not_completed', 'Backup not completed', `Backup ${b.id} is ${b.status}${b.error ? ` (${b.error.message})` : ''}; only a completed backup can be restored.`, [
        { field, message: `the backup is ${b.status}` },
      ]);
    }
    const m = b.manifest;
    const plan = planRestore(m.shards, req.shards);
    const neededMb = restoreMemoryNeededMb(m.shards, req.shards, plan);
    if (memoryMbPerShard < neededMb) {
      const why = plan.mode === 'seed' ? "The backup's largest shard used" : `Spread over ${req.shards} shard(s), the backup's data needs (with 10% headroom)`;
      throw unprocessable('restore_memory_too_small', 'Not enough memory for the backup',
        `${why} ${neededMb} MB; the new cluster needs at least memoryMbPerShard: ${neededMb}.`,
        [{ field: 'memoryMbPerShard', message: `needs at least ${neededMb} MB per shard to hold the backup's data` }]);
    }
    const storage = await this.d.storage.open(b.storage);
    for (const s of m.shards) {
      const got = await checksumOf(storage, s.file).catch((err: Error) => ({ error: err.message }));
      if ('error' in got || got.sha256 !== s.sha256 || got.bytes !== s.bytes) {
        const why = 'error' in got ? `cannot be read (${got.error})` : `has SHA-256 ${got.sha256} (${got.bytes} bytes), the manifest says ${s.sha256} (${s.bytes} bytes)`;
        throw unprocessable('backup_corrupted', 'Backup file damaged', `File ${s.file} of backup ${b.id} ${why}; nothing was created.`, [
          { field, message: `file ${s.file} ${why}` },
        ]);
      }
      const tooNew = rdbVersionProblem(readRdbVersion(got.head) ?? 0);
      if (tooNew) throw rdbVersionUnsupported(tooNew, field, `file ${s.file}`);
    }
    return {
      backupId: b.id,
      files: m.shards.map((s) => ({ storage: b.storage, key: s.file, sha256: s.sha256, keys: s.keys, keysWithExpiry: s.keysWithExpiry })),
      mode: plan.mode,
    };
  }
}
