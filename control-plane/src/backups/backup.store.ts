/** Backups and restores as stored (tables backups, cluster_restores). */
import type pg from 'pg';
import type { Backup, BackupManifest, BackupStatus, InstanceSeed, StorageRef } from '@strata/api';
import type { Db } from '../db/tx';

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
}

const toRow = (r: any): BackupRow => ({
  id: r.id, organizationId: r.organization_id, clusterId: r.cluster_id, clusterName: r.cluster_name, status: r.status, consistent: r.consistent,
  storage: r.storage, shards: r.shards, manifest: r.manifest, error: r.error, createdAt: r.created_at, finishedAt: r.finished_at,
});

export class BackupStore {
  constructor(private readonly pool: pg.Pool) {}

  /** False when a backup of this cluster is already running. */
  async insert(b: Pick<BackupRow, 'id' | 'organizationId' | 'clusterId' | 'clusterName' | 'consistent' | 'storage' | 'shards'>): Promise<boolean> {
    const r = await this.pool.query(
      `INSERT INTO backups (id, organization_id, cluster_id, cluster_name, status, consistent, storage, shards)
       VALUES ($1, $2, $3, $4, 'running', $5, $6, $7) ON CONFLICT (cluster_id) WHERE status = 'running' DO NOTHING`,
      [b.id, b.organizationId, b.clusterId, b.clusterName, b.consistent, JSON.stringify(b.storage), JSON.stringify(b.shards)],
    );
    return r.rowCount === 1;
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

  async running(): Promise<BackupRow[]> {
    const r = await this.pool.query(`SELECT * FROM backups WHERE status = 'running' ORDER BY created_at`);
    return r.rows.map(toRow);
  }

  /** Ends a running backup; false when it had already ended (another pass or process did it). */
  async finish(id: string, end: { status: 'completed'; manifest: BackupManifest } | { status: 'failed'; error: { code: string; message: string } }): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE backups SET status = $2, manifest = $3, error = $4, finished_at = now() WHERE id = $1 AND status = 'running'`,
      [id, end.status, end.status === 'completed' ? JSON.stringify(end.manifest) : null, end.status === 'failed' ? JSON.stringify(end.error) : null],
    );
    return r.rowCount === 1;
  }

  async insertRestore(clusterId: string, backupId: string, seeds: InstanceSeed[], db: Db): Promise<void> {
    await db.query('INSERT INTO cluster_restores (cluster_id, backup_id, seeds) VALUES ($1, $2, $3)', [clusterId, backupId, JSON.stringify(seeds)]);
  }

  /** The file a restored cluster's shard starts from; null when the cluster is no restore. */
  async restoreSeed(clusterId: string, shard: number): Promise<InstanceSeed | null> {
    const r = await this.pool.query('SELECT seeds FROM cluster_restores WHERE cluster_id = $1', [clusterId]);
    return (r.rows[0]?.seeds as InstanceSeed[] | undefined)?.[shard] ?? null;
  }
}

/** What the API shows; `progress`: each shard's state from its task. */
export function publicBackup(b: BackupRow, shards: Backup['shards']): Backup {
  return {
    id: b.id, clusterId: b.clusterId, clusterName: b.clusterName, status: b.status, consistent: b.consistent, storage: b.storage.kind, shards,
    manifest: b.manifest, error: b.error, createdAt: b.createdAt.toISOString(), finishedAt: b.finishedAt?.toISOString() ?? null,
  };
}
