/**
 * Starting a backup, showing one, and checking a backup before a cluster
 * is restored from it.
 */
import { randomUUID } from 'node:crypto';
import type { Backup, CreateBackupRequest, CreateClusterRequest, InstanceSeed, StorageRef } from '@strata/api';
import { checksumOf, openStorage } from '@strata/engine/backup';
import { conflict, notFound, unprocessable, validationFailed } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import { shardKey, type BackupCoordinator } from './backup-coordinator';
import { publicBackup, type BackupRow, type BackupStore } from './backup.store';

export interface BackupServiceDeps {
  store: BackupStore;
  clusters: ClusterStore;
  nodes: NodeStore;
  coordinator: BackupCoordinator;
  /** Where new backups are written. */
  storage: StorageRef;
}

const MiB = 1024 * 1024;

export class BackupService {
  constructor(private readonly d: BackupServiceDeps) {}

  async start(organizationId: string, clusterId: string, req: CreateBackupRequest): Promise<BackupRow> {
    const cluster = await this.d.clusters.get(clusterId, organizationId);
    if (!cluster) throw notFound('Cluster');
    if (req.consistent) {
      throw unprocessable('not_yet_supported', 'Not supported yet', 'Consistent backups (one point in time across every shard) are not available yet; omit consistent to back up each shard at its own point in time.', [
        { field: 'consistent', message: 'not available yet' },
      ]);
    }
    if (!['ready', 'degraded'].includes(cluster.status.phase)) {
      throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; backups are taken of a ready (or degraded) cluster.`);
    }
    const id = randomUUID();
    const shards = Array.from({ length: cluster.spec.shards }, (_, shard) => ({ shard, key: shardKey(id, shard) }));
    const inserted = await this.d.store.insert({ id, organizationId, clusterId, clusterName: cluster.name, consistent: false, storage: this.d.storage, shards });
    if (!inserted) throw conflict('backup_in_progress', 'A backup of this cluster is already running; wait for it to finish.');
    void this.d.coordinator.tick();
    return (await this.d.store.get(id))!;
  }

  /** The API's view: each shard's progress from its task. */
  async view(b: BackupRow): Promise<Backup> {
    const [tasks, instances, nodes] = await Promise.all([this.d.coordinator.shardTasks(b), this.d.clusters.instances(b.clusterId), this.d.nodes.list()]);
    return publicBackup(b, b.shards.map(({ shard }) => {
      const t = tasks.get(shard);
      const fromManifest = b.manifest?.shards.find((s) => s.shard === shard);
      if (fromManifest) return { shard, state: 'completed' as const, bytes: fromManifest.bytes, source: fromManifest.source.address };
      const inst = t && instances.find((i) => i.id === (t.payload as { instanceId?: string }).instanceId);
      const node = inst && nodes.find((n) => n.id === inst.nodeId);
      const state = !t ? 'pending' as const
        : t.state === 'succeeded' ? 'completed' as const
        : t.state === 'failed' ? (b.status === 'failed' ? 'failed' as const : 'running' as const) : 'running' as const;
      return { shard, state, bytes: t?.result?.kind === 'backup-shard' ? t.result.bytes : null, source: inst ? `${node?.address ?? 'unknown'}:${inst.port}` : null };
    }));
  }

  /**
   * What a restore from `req.restoreFrom` needs, checked before anything is
   * created: a completed backup of this organization, the same shard count,
   * enough memory per shard, and every file whole (its SHA-256 is the
   * manifest's). Returns each shard's seed.
   */
  async prepareRestore(organizationId: string, req: CreateClusterRequest & { restoreFrom: { backupId: string } }, memoryMbPerShard: number): Promise<{ backupId: string; seeds: InstanceSeed[] }> {
    const field = 'restoreFrom.backupId';
    const b = await this.d.store.get(req.restoreFrom.backupId, organizationId);
    if (!b) throw validationFailed([{ field, message: 'no backup with this id' }], 'The backup to restore from does not exist.');
    if (b.status !== 'completed' || !b.manifest) {
      throw unprocessable('backup_not_completed', 'Backup not completed', `Backup ${b.id} is ${b.status}${b.error ? ` (${b.error.message})` : ''}; only a completed backup can be restored.`, [
        { field, message: `the backup is ${b.status}` },
      ]);
    }
    const m = b.manifest;
    if (req.shards !== m.shards.length) {
      throw unprocessable('restore_layout_unsupported', 'Restore layout not supported yet',
        `The backup has ${m.shards.length} shard(s); restoring into a different shard count (${req.shards}) is not supported yet. Create the cluster with shards: ${m.shards.length}, then change its shape.`,
        [{ field: 'shards', message: `must be ${m.shards.length}, the backup's shard count (other layouts are not supported yet)` }]);
    }
    const neededMb = Math.ceil(Math.max(0, ...m.shards.map((s) => s.usedMemoryBytes)) / MiB);
    if (memoryMbPerShard < neededMb) {
      throw unprocessable('restore_memory_too_small', 'Not enough memory for the backup',
        `The backup's largest shard used ${neededMb} MB; the new cluster needs at least memoryMbPerShard: ${neededMb}.`,
        [{ field: 'memoryMbPerShard', message: `needs at least ${neededMb} MB per shard to hold the backup's data` }]);
    }
    const storage = openStorage(b.storage);
    for (const s of m.shards) {
      const got = await checksumOf(storage, s.file).catch((err: Error) => ({ error: err.message }));
      if ('error' in got || got.sha256 !== s.sha256 || got.bytes !== s.bytes) {
        const why = 'error' in got ? `cannot be read (${got.error})` : `has SHA-256 ${got.sha256} (${got.bytes} bytes), the manifest says ${s.sha256} (${s.bytes} bytes)`;
        throw unprocessable('backup_corrupted', 'Backup file damaged', `File ${s.file} of backup ${b.id} ${why}; nothing was created.`, [
          { field, message: `file ${s.file} ${why}` },
        ]);
      }
    }
    return {
      backupId: b.id,
      seeds: m.shards.map((s) => ({ storage: b.storage, key: s.file, sha256: s.sha256, keys: s.keys, keysWithExpiry: s.keysWithExpiry })),
    };
  }
}
