/** Backups and restores as stored (tables backups, cluster_restores). */
import type pg from 'pg';
import type { Backup, BackupConsistentStartResult, BackupManifest, BackupStatus, InstanceSeed, SlotRange, StorageRef } from '@strata/api';
import type { Db } from '../db/tx';
import { validationFailed } from '../errors';

/** An import's source as stored (the password is sealed apart, in import_secret_enc). */
export interface ImportSource {
  /** redis://[user@]host:port */
  url: string;
  username?: string;
  shards: { host: string; port: number; slots: SlotRange[] }[];
  engineVersion: string;
}

/** How a restore loads its backup (engine's RestorePlan mode). */
export type RestoreMode = 'seed' | 'move';

/** One shard's part of a backup as planned. */
export interface BackupShardPlan {
  shard: number;
  /** The object key under the storage. */
  key: string;
}

export interface BackupRow {
  id: string;
  organizationId: string;
  clusterId: string;
  clusterName: string;
  status: BackupStatus;
  consistent: boolean;
  storage: StorageRef;
  shards: BackupShardPlan[];
  manifest: BackupManifest | null;
  error: { code: string; message: string } | null;
  createdAt: Date;
  finishedAt: Date | null;
  trigger: 'manual' | 'schedule' | 'import' | 'upload';
  /** Imports: the source (no password); null for backups of a cluster. */
  importSource: ImportSource | null;
  expiresAt: Date | null;
  filesRemoved: boolean;
  /** Consistent backups: the start's outcome (the pause, each shard's snapshot). */
  consistentStart: BackupConsistentStartResult | null;
}

const toRow = (r: any): BackupRow => ({
  id: r.id, organizationId: r.organization_id, clusterId: r.cluster_id, clusterName: r.cluster_name, status: r.status, consistent: r.consistent,
  storage: r.storage, shards: r.shards, manifest: r.manifest, error: r.error, createdAt: r.created_at, finishedAt: r.finished_at,
  trigger: r.trigger, importSource: r.import_source ?? null, expiresAt: r.expires_at, filesRemoved: r.files_removed, consistentStart: r.consistent_start ?? null,
});

/** The first key of a backup's advisory lock (the second: a hash of its id). */
const BACKUP_LOCK = 4848;

export class BackupStore {
  constructor(private readonly pool: pg.Pool) {}

  /** False when a backup of this cluster is already running. */
  async insert(b: Pick<BackupRow, 'id' | 'organizationId' | 'clusterId' | 'clusterName' | 'consistent' | 'storage' | 'shards' | 'trigger'>): Promise<boolean> {
    const r = await this.pool.query(
      `INSERT INTO backups (id, organization_id, cluster_id, cluster_name, status, consistent, storage, shards, trigger)
       VALUES ($1, $2, $3, $4, 'running', $5, $6, $7, $8) ON CONFLICT (cluster_id) WHERE status = 'running' DO NOTHING`,
      [b.id, b.organizationId, b.clusterId, b.clusterName, b.consistent, JSON.stringify(b.storage), JSON.stringify(b.shards), b.trigger],
    );
    return r.rowCount === 1;
  }

  /** An import (never conflicts: its own id owns it). */
  async insertImport(b: Pick<BackupRow, 'id' | 'organizationId' | 'clusterName' | 'storage' | 'shards'> & { source: ImportSource; secretEnc: string | null }): Promise<void> {
    await this.pool.query(
      `INSERT INTO backups (id, organization_id, cluster_id, cluster_name, status, consistent, storage, shards, trigger, import_source, import_secret_enc)
       VALUES ($1, $2, $1, $3, 'running', false, $4, $5, 'import', $6, $7)`,
      [b.id, b.organizationId, b.clusterName, JSON.stringify(b.storage), JSON.stringify(b.shards), JSON.stringify(b.source), b.secretEnc],
    );
  }

  /** An upload, running while its file streams in (its process touches it: touchUpload). */
  async insertUpload(b: Pick<BackupRow, 'id' | 'organizationId' | 'clusterName' | 'storage' | 'shards'>): Promise<void> {
    await this.pool.query(
      `INSERT INTO backups (id, organization_id, cluster_id, cluster_name, status, consistent, storage, shards, trigger, upload_alive_at)
       VALUES ($1, $2, $1, $3, 'running', false, $4, $5, 'upload', now())`,
      [b.id, b.organizationId, b.clusterName, JSON.stringify(b.storage), JSON.stringify(b.shards)],
    );
  }

  /** The upload's process is alive and still streaming. */
  async touchUpload(id: string): Promise<void> {
    await this.pool.query(`UPDATE backups SET upload_alive_at = now() WHERE id = $1 AND status = 'running'`, [id]);
  }

  /** Whether a running upload's process stopped touching it `staleMs` ago (it died mid-upload). */
  async uploadIsStale(id: string, staleMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `SELECT 1 FROM backups WHERE id = $1 AND status = 'running' AND upload_alive_at < now() - make_interval(secs => $2::float8 / 1000)`, [id, staleMs],
    );
    return r.rowCount === 1;
  }

  /** The organization's backups, newest first (`clusterDeleted`: whose cluster row is gone; imports and uploads never are). */
  async listForOrganization(organizationId: string, f: { status?: BackupStatus; trigger?: BackupRow['trigger']; clusterDeleted?: boolean }): Promise<BackupRow[]> {
    const r = await this.pool.query(
      `SELECT b.* FROM backups b
        WHERE b.organization_id = $1 AND ($2::text IS NULL OR b.status = $2) AND ($3::text IS NULL OR b.trigger = $3)
          AND ($4::boolean IS NULL OR $4 = (b.trigger IN ('manual', 'schedule') AND NOT EXISTS (SELECT 1 FROM clusters c WHERE c.id = b.cluster_id)))
        ORDER BY b.created_at DESC LIMIT 500`,
      [organizationId, f.status ?? null, f.trigger ?? null, f.clusterDeleted ?? null],
    );
    return r.rows.map(toRow);
  }

  /** An import's sealed source password (null: none, or no import). */
  async importSecret(id: string): Promise<string | null> {
    const r = await this.pool.query('SELECT import_secret_enc FROM backups WHERE id = $1', [id]);
    return r.rows[0]?.import_secret_enc ?? null;
  }

  async setConsistentStart(id: string, start: BackupConsistentStartResult | null): Promise<void> {
    await this.pool.query(`UPDATE backups SET consistent_start = $2 WHERE id = $1 AND status = 'running'`, [id, start ? JSON.stringify(start) : null]);
  }

  /** Whether a task belongs to a backup that is no longer running. */
  async taskShouldStop(taskId: string): Promise<boolean> {
    const r = await this.pool.query(
      `SELECT b.status FROM tasks t JOIN backups b ON b.id::text = t.payload->>'backupId'
        WHERE t.id = $1 AND t.kind IN ('backup-shard', 'backup-consistent-start')`, [taskId],
    );
    return r.rows[0] ? r.rows[0].status !== 'running' : false;
  }

  /** Failed backups whose objects may still be in the storage. */
  async unswept(): Promise<BackupRow[]> {
    const r = await this.pool.query(`SELECT * FROM backups WHERE status = 'failed' AND NOT files_removed ORDER BY created_at LIMIT 50`);
    return r.rows.map(toRow);
  }

  async markFilesRemoved(id: string): Promise<void> {
    await this.pool.query('UPDATE backups SET files_removed = true WHERE id = $1', [id]);
  }

  async delete(id: string): Promise<void> {
    await this.pool.query('DELETE FROM backups WHERE id = $1', [id]);
  }

  /** A cluster's completed backups, newest first. */
  async completedOf(clusterId: string): Promise<BackupRow[]> {
    const r = await this.pool.query(`SELECT * FROM backups WHERE cluster_id = $1 AND status = 'completed' ORDER BY created_at DESC`, [clusterId]);
    return r.rows.map(toRow);
  }

  /** Retention by age: every completed backup of the cluster expires `days` after it was taken (null: never). */
  async setExpiry(clusterId: string, days: number | null): Promise<void> {
    await this.pool.query(
      `UPDATE backups SET expires_at = CASE WHEN $2::int IS NULL THEN NULL ELSE created_at + make_interval(days => $2::int) END WHERE cluster_id = $1 AND status <> 'running'`,
      [clusterId, days],
    );
  }

  /** Backups whose retention ended (of live and deleted clusters alike). */
  async expired(now: Date): Promise<BackupRow[]> {
    const r = await this.pool.query(`SELECT * FROM backups WHERE expires_at <= $1 AND status <> 'running' ORDER BY expires_at LIMIT 100`, [now]);
    return r.rows.map(toRow);
  }

  async get(id: string, organizationId?: string): Promise<BackupRow | null> {
    const r = await this.pool.query(
      `SELECT * FROM backups WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`, [id, organizationId ?? null],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async listForCluster(clusterId: string, organizationId: string): Promise<BackupRow[]> {
    const r = await this.pool.query(
      'SELECT * FROM backups WHERE cluster_id = $1 AND organization_id = $2 ORDER BY created_at DESC LIMIT 200', [clusterId, organizationId],
    );
    return r.rows.map(toRow);
  }

  /** Every S3 storage backups were or will be written to: the organizations' configured ones and those existing backups name. */
  async s3StoragesInUse(): Promise<StorageRef[]> {
    const r = await this.pool.query(
      `SELECT storage AS ref FROM backups WHERE storage->>'kind' = 's3'
        UNION SELECT ref FROM backup_storage_configs WHERE ref->>'kind' = 's3'`,
    );
    return r.rows.map((x) => x.ref as StorageRef);
  }

  /** The ids of the backups running now. */
  async runningIds(): Promise<Set<string>> {
    const r = await this.pool.query(`SELECT id FROM backups WHERE status = 'running'`);
    return new Set(r.rows.map((x) => x.id as string));
  }

  async running(): Promise<BackupRow[]> {
    const r = await this.pool.query(`SELECT * FROM backups WHERE status = 'running' ORDER BY created_at`);
    return r.rows.map(toRow);
  }

  /** Ends a running backup; false when it had already ended (another pass or process did it). */
  async finish(id: string, end: { status: 'completed'; manifest: BackupManifest; keepDays?: number | null } | { status: 'failed'; error: { code: string; message: string } }): Promise<boolean> {
    const keepDays = end.status === 'completed' ? end.keepDays ?? null : null;
    const r = await this.pool.query(
      `UPDATE backups SET status = $2, manifest = $3, error = $4, finished_at = now(),
         expires_at = CASE WHEN $5::int IS NULL THEN NULL ELSE created_at + make_interval(days => $5::int) END
       WHERE id = $1 AND status = 'running'`,
      [id, end.status, end.status === 'completed' ? JSON.stringify(end.manifest) : null, end.status === 'failed' ? JSON.stringify(end.error) : null, keepDays],
    );
    return r.rowCount === 1;
  }

  /**
   * `files`: the backup's, by its shard index; `mode`: seed the new primaries with them, or move their keys
   * (restore-layout.ts). Recorded under the backup's lock (shared: restores of one backup do not wait for each
   * other) while it still exists: a delete holding the lock is waited for, and then refuses this restore.
   */
  async insertRestore(clusterId: string, backupId: string, files: InstanceSeed[], mode: RestoreMode, db: Db): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock_shared($1, hashtext($2))', [BACKUP_LOCK, backupId]);
    const r = await db.query(
      `INSERT INTO cluster_restores (cluster_id, backup_id, seeds, mode) SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM backups WHERE id = $2)`,
      [clusterId, backupId, JSON.stringify(files), mode],
    );
    if (r.rowCount !== 1) throw validationFailed([{ field: 'restoreFrom.backupId', message: 'no backup with this id (deleted meanwhile)' }], 'The backup to restore from does not exist.');
  }

  /**
   * Runs `fn` (a backup's removal) holding the backup's lock: no restore of it is recorded meanwhile, and one
   * being recorded is waited for (its cluster then reads the backup: `restoresReading`).
   */
  async whileLocked<T>(backupId: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [BACKUP_LOCK, backupId]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [BACKUP_LOCK, backupId]);
      }
    } finally {
      client.release();
    }
  }

  /** Restores that still read this backup: the create operations of clusters restored from it that have not ended. */
  async restoresReading(backupId: string): Promise<{ operationId: string; clusterId: string; clusterName: string }[]> {
    const r = await this.pool.query(
      `SELECT o.id AS operation_id, c.id AS cluster_id, c.name
         FROM cluster_restores r
         JOIN clusters c ON c.id = r.cluster_id
         JOIN operations o ON o.cluster_id = r.cluster_id AND o.kind = 'create-cluster' AND o.state IN ('pending', 'running')
        WHERE r.backup_id = $1
        ORDER BY o.created_at`,
      [backupId],
    );
    return r.rows.map((x) => ({ operationId: x.operation_id, clusterId: x.cluster_id, clusterName: x.name }));
  }

  /** The file a restored cluster's shard starts from; null when the cluster is no restore, or its keys are moved in. */
  async restoreSeed(clusterId: string, shard: number): Promise<InstanceSeed | null> {
    const r = await this.pool.query(`SELECT seeds FROM cluster_restores WHERE cluster_id = $1 AND mode = 'seed'`, [clusterId]);
    return (r.rows[0]?.seeds as InstanceSeed[] | undefined)?.[shard] ?? null;
  }

  /** Each existing cluster's last completed backup (metrics). */
  async lastCompletedPerCluster(): Promise<{ clusterId: string; clusterName: string; finishedAt: Date; durationSeconds: number; bytes: number }[]> {
    const r = await this.pool.query(
      `SELECT DISTINCT ON (b.cluster_id) b.cluster_id, c.name, b.finished_at,
              extract(epoch FROM ((b.manifest->>'finishedAt')::timestamptz - (b.manifest->>'startedAt')::timestamptz))::float8 AS duration,
              (SELECT coalesce(sum((s->>'bytes')::bigint), 0) FROM jsonb_array_elements(b.manifest->'shards') s)::float8 AS bytes
         FROM backups b JOIN clusters c ON c.id = b.cluster_id
        WHERE b.status = 'completed' AND b.trigger <> 'import'
        ORDER BY b.cluster_id, b.finished_at DESC`,
    );
    return r.rows.map((x) => ({ clusterId: x.cluster_id, clusterName: x.name, finishedAt: x.finished_at, durationSeconds: x.duration, bytes: x.bytes }));
  }

  /** What a restored cluster was restored from (null: it was created empty, or the backup is gone). */
  async restoreOf(clusterId: string): Promise<{ backupId: string; mode: RestoreMode; manifest: BackupManifest } | null> {
    const r = await this.pool.query(
      `SELECT r.backup_id, r.mode, b.manifest FROM cluster_restores r JOIN backups b ON b.id = r.backup_id WHERE r.cluster_id = $1 AND b.manifest IS NOT NULL`,
      [clusterId],
    );
    const row = r.rows[0];
    return row ? { backupId: row.backup_id, mode: row.mode, manifest: row.manifest } : null;
  }

  /**
   * Memory (bytes) of restores' temporary engines by node: each `restore-keys` task still to run or
   * running loads its backup file into a standalone engine on its node, which holds about what the
   * file's source used (the manifest's usedMemoryBytes).
   */
  async temporaryEngineMemory(db: Db = this.pool): Promise<Map<string, number>> {
    const r = await db.query(
      `SELECT t.node_id, sum((s->>'usedMemoryBytes')::bigint)::float8 AS bytes
         FROM tasks t
         JOIN cluster_restores r ON r.cluster_id = t.cluster_id
         JOIN backups b ON b.id = r.backup_id
         CROSS JOIN LATERAL jsonb_array_elements(b.manifest->'shards') s
        WHERE t.kind = 'restore-keys' AND t.state IN ('pending', 'leased') AND (s->>'shard')::int = (t.payload->>'backupShard')::int
        GROUP BY t.node_id`,
    );
    return new Map(r.rows.map((x) => [x.node_id as string, Number(x.bytes)]));
  }

  /** The backup files whose keys are moved into a restored cluster (by the backup's shard index); null when none are. */
  async restoreFiles(clusterId: string): Promise<InstanceSeed[] | null> {
    const r = await this.pool.query(`SELECT seeds FROM cluster_restores WHERE cluster_id = $1 AND mode = 'move'`, [clusterId]);
    return (r.rows[0]?.seeds as InstanceSeed[] | undefined) ?? null;
  }
}

/** What the API shows; `progress`: each shard's state from its task. */
export function publicBackup(b: BackupRow, shards: Backup['shards'], clusterDeleted: boolean): Backup {
  return {
    id: b.id, clusterId: b.clusterId, clusterName: b.clusterName, status: b.status, consistent: b.consistent, storage: b.storage.kind,
    trigger: b.trigger, importedFrom: b.importSource?.url ?? null, clusterDeleted: clusterDeleted && (b.trigger === 'manual' || b.trigger === 'schedule'), expiresAt: b.expiresAt?.toISOString() ?? null, shards,
    manifest: b.manifest, error: b.error, createdAt: b.createdAt.toISOString(), finishedAt: b.finishedAt?.toISOString() ?? null,
  };
}
