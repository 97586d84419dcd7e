/** Key scans as stored (table key_scans): the plan per shard, then what each shard's scan found. */
import type pg from 'pg';
import type { HotKeysAvailability, KeyScanParams, KeyScanShard, KeyScanStatus } from '@strata/api';

/** One shard's part: where it runs, and once the scan ended, its outcome. */
export interface KeyScanShardRow {
  shard: number;
  instanceId: string;
  nodeId: string;
  address: string;
  /** Set when the scan ended (the tasks may be gone by then). */
  final?: Pick<KeyScanShard, 'state' | 'progress' | 'detail' | 'error' | 'result'>;
}

export interface KeyScanRow {
  id: string;
  organizationId: string;
  clusterId: string;
  status: KeyScanStatus;
  params: KeyScanParams;
  hotKeys: HotKeysAvailability;
  shards: KeyScanShardRow[];
  createdAt: Date;
  finishedAt: Date | null;
}

const toRow = (r: any): KeyScanRow => ({
  id: r.id, organizationId: r.organization_id, clusterId: r.cluster_id, status: r.status, params: r.params, hotKeys: r.hot_keys,
  shards: r.shards, createdAt: r.created_at, finishedAt: r.finished_at,
});

export class KeyScanStore {
  constructor(private readonly pool: pg.Pool) {}

  /** False when a scan of this cluster is already running. */
  async insert(s: Omit<KeyScanRow, 'status' | 'createdAt' | 'finishedAt'>): Promise<boolean> {
    const r = await this.pool.query(
      `INSERT INTO key_scans (id, organization_id, cluster_id, status, params, hot_keys, shards) VALUES ($1, $2, $3, 'running', $4, $5, $6)
       ON CONFLICT (cluster_id) WHERE status = 'running' DO NOTHING`,
      [s.id, s.organizationId, s.clusterId, JSON.stringify(s.params), JSON.stringify(s.hotKeys), JSON.stringify(s.shards)],
    );
    return r.rowCount === 1;
  }

  async get(id: string, clusterId: string, organizationId: string): Promise<KeyScanRow | null> {
    const r = await this.pool.query('SELECT * FROM key_scans WHERE id = $1 AND cluster_id = $2 AND organization_id = $3', [id, clusterId, organizationId]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async listForCluster(clusterId: string, organizationId: string, limit = 20): Promise<KeyScanRow[]> {
    const r = await this.pool.query(
      'SELECT * FROM key_scans WHERE cluster_id = $1 AND organization_id = $2 ORDER BY created_at DESC LIMIT $3', [clusterId, organizationId, limit],
    );
    return r.rows.map(toRow);
  }

  async running(clusterId: string): Promise<KeyScanRow[]> {
    const r = await this.pool.query(`SELECT * FROM key_scans WHERE cluster_id = $1 AND status = 'running'`, [clusterId]);
    return r.rows.map(toRow);
  }

  /** Ends a running scan with each shard's outcome; false when it had already ended. */
  async finish(id: string, status: 'completed' | 'failed', shards: KeyScanShardRow[]): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE key_scans SET status = $2, shards = $3, finished_at = now() WHERE id = $1 AND status = 'running'`, [id, status, JSON.stringify(shards)],
    );
    return r.rowCount === 1;
  }
}
