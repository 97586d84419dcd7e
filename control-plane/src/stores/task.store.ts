import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/tx';

export type TaskState = 'pending' | 'leased' | 'succeeded' | 'failed';

/** A task as stored: payloads never hold secrets; they are added when an agent leases the task. */
export interface TaskRow {
  id: string;
  nodeId: string;
  clusterId: string;
  kind: string;
  payload: Record<string, unknown>;
  dedupeKey: string;
  state: TaskState;
  attempt: number;
  leaseUntil: Date | null;
  error: string | null;
  updatedAt: Date;
}

const toTask = (r: any): TaskRow => ({
  id: r.id, nodeId: r.node_id, clusterId: r.cluster_id, kind: r.kind, payload: r.payload, dedupeKey: r.dedupe_key,
  state: r.state, attempt: r.attempt, leaseUntil: r.lease_until, error: r.error, updatedAt: r.updated_at,
});

export class TaskStore {
  constructor(private readonly pool: pg.Pool) {}

  /** Inserts unless an open task with the same dedupe key exists. Returns true when inserted. */
  async enqueue(t: { nodeId: string; clusterId: string; kind: string; payload: object; dedupeKey: string }, db: Db = this.pool): Promise<boolean> {
    const r = await db.query(
      `INSERT INTO tasks (id, node_id, cluster_id, kind, payload, dedupe_key, state) VALUES ($1, $2, $3, $4, $5, $6, 'pending')
       ON CONFLICT (dedupe_key) WHERE state IN ('pending', 'leased') DO NOTHING`,
      [randomUUID(), t.nodeId, t.clusterId, t.kind, JSON.stringify(t.payload), t.dedupeKey],
    );
    return r.rowCount === 1;
  }

  /** Claims the oldest pending task of a node, or one whose lease expired. */
  async lease(nodeId: string, leaseMs: number): Promise<TaskRow | null> {
    const r = await this.pool.query(
      `UPDATE tasks SET state = 'leased', attempt = attempt + 1, updated_at = now(),
              lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE id = (SELECT id FROM tasks
                     WHERE node_id = $1 AND (state = 'pending' OR (state = 'leased' AND lease_until < now()))
                     ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING *`,
      [nodeId, leaseMs],
    );
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  async heartbeat(id: string, nodeId: string, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE tasks SET lease_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
        WHERE id = $1 AND node_id = $2 AND state = 'leased'`,
      [id, nodeId, leaseMs],
    );
    return r.rowCount === 1;
  }

  async complete(id: string, nodeId: string, outcome: 'succeeded' | 'failed', error?: string): Promise<TaskRow | null> {
    const r = await this.pool.query(
      `UPDATE tasks SET state = $3, error = $4, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND node_id = $2 AND state = 'leased' RETURNING *`,
      [id, nodeId, outcome, error ?? null],
    );
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  async exists(id: string, nodeId: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM tasks WHERE id = $1 AND node_id = $2', [id, nodeId]);
    return r.rowCount === 1;
  }

  /** The newest task for each dedupe key of a cluster. */
  async latestByKey(clusterId: string): Promise<Map<string, TaskRow>> {
    const r = await this.pool.query(
      `SELECT DISTINCT ON (dedupe_key) * FROM tasks WHERE cluster_id = $1 ORDER BY dedupe_key, created_at DESC`,
      [clusterId],
    );
    return new Map(r.rows.map((row) => [row.dedupe_key as string, toTask(row)]));
  }

  async countFailures(clusterId: string, dedupeKey: string): Promise<number> {
    const r = await this.pool.query(`SELECT count(*)::int AS n FROM tasks WHERE cluster_id = $1 AND dedupe_key = $2 AND state = 'failed'`, [clusterId, dedupeKey]);
    return r.rows[0].n;
  }
}
