import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { TaskRequest, type MigrationProgress, type TaskResult } from '@strata/api';
import type { Db } from '../db/tx';

export type TaskState = 'pending' | 'leased' | 'succeeded' | 'failed';

/** A task as stored: payloads never hold secrets; they are added when an agent leases the task. */
export interface TaskRow {
  id: string;
  nodeId: string;
  clusterId: string;
  /** The operation the task belongs to; null for healing work outside operations. */
  operationId: string | null;
  kind: string;
  payload: Record<string, unknown>;
  dedupeKey: string;
  state: TaskState;
  attempt: number;
  leaseUntil: Date | null;
  error: string | null;
  progress: number | null;
  progressDetail: string | null;
  /** Structured progress (migrate-slots: MigrationProgress). */
  progressStats: MigrationProgress | null;
  result: TaskResult | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EnqueueTask {
  nodeId: string;
  clusterId: string;
  operationId: string | null;
  request: TaskRequest;
  dedupeKey: string;
}

const toTask = (r: any): TaskRow => ({
  id: r.id, nodeId: r.node_id, clusterId: r.cluster_id, operationId: r.operation_id, kind: r.kind, payload: r.payload, dedupeKey: r.dedupe_key,
  state: r.state, attempt: r.attempt, leaseUntil: r.lease_until, error: r.error, progress: r.progress, progressDetail: r.progress_detail, progressStats: r.progress_stats ?? null,
  result: r.result, createdAt: r.created_at, updatedAt: r.updated_at,
});

export class TaskStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Inserts unless an open task with the same dedupe key exists for the same
   * owner (operation, or healing). The request is checked against the task
   * union here, so a malformed task never reaches an agent. True when inserted.
   */
  async enqueue(t: EnqueueTask, db: Db = this.pool): Promise<boolean> {
    const request = TaskRequest.parse(t.request);
    const r = await db.query(
      `INSERT INTO tasks (id, node_id, cluster_id, operation_id, kind, payload, dedupe_key, state) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending')
       ON CONFLICT (cluster_id, (coalesce(operation_id::text, '')), dedupe_key) WHERE state IN ('pending', 'leased') DO NOTHING`,
      [randomUUID(), t.nodeId, t.clusterId, t.operationId, request.kind, JSON.stringify(request), t.dedupeKey],
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

  async progress(id: string, nodeId: string, progress: number, detail?: string, stats?: MigrationProgress): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE tasks SET progress = $3, progress_detail = $4, progress_stats = coalesce($5, progress_stats), updated_at = now() WHERE id = $1 AND node_id = $2 AND state = 'leased'`,
      [id, nodeId, progress, detail ?? null, stats ? JSON.stringify(stats) : null],
    );
    return r.rowCount === 1;
  }

  async complete(id: string, nodeId: string, outcome: 'succeeded' | 'failed', error?: string, result?: TaskResult): Promise<TaskRow | null> {
    const r = await this.pool.query(
      `UPDATE tasks SET state = $3, error = $4, result = $5, progress = CASE WHEN $3 = 'succeeded' THEN 1 ELSE progress END,
              lease_until = NULL, updated_at = now()
        WHERE id = $1 AND node_id = $2 AND state = 'leased' RETURNING *`,
      [id, nodeId, outcome, error ?? null, result ? JSON.stringify(result) : null],
    );
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  /**
   * Takes an open task back from its node (it went down): failed with `error`, so the work is handed out again, to
   * another node. Its agent, if it still runs, finds its heartbeat refused and stops at its next safe point.
   */
  async takeBack(id: string, error: string, db: Db = this.pool): Promise<TaskRow | null> {
    const r = await db.query(
      `UPDATE tasks SET state = 'failed', error = $2, lease_until = NULL, updated_at = now() WHERE id = $1 AND state IN ('pending', 'leased') RETURNING *`,
      [id, error],
    );
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  /**
   * `t` as it stands, or, when it is open (pending or leased) and held by a node `downNode` names (null: not down),
   * taken back with the error `why` gives for that node (see takeBack).
   */
  async takeBackFromDownNode<N>(
    t: TaskRow | undefined, downNode: (nodeId: string) => N | null | Promise<N | null>, why: (node: N) => string, db: Db = this.pool,
  ): Promise<TaskRow | undefined> {
    if (!t || (t.state !== 'pending' && t.state !== 'leased')) return t;
    const node = await downNode(t.nodeId);
    if (node === null) return t;
    return (await this.takeBack(t.id, why(node), db)) ?? t;
  }

  async exists(id: string, nodeId: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM tasks WHERE id = $1 AND node_id = $2', [id, nodeId]);
    return r.rowCount === 1;
  }

  /** The newest task for each dedupe key of a cluster's operation (or of its healing work, with null). */
  async latestByKey(clusterId: string, operationId: string | null): Promise<Map<string, TaskRow>> {
    const r = await this.pool.query(
      `SELECT DISTINCT ON (dedupe_key) * FROM tasks WHERE cluster_id = $1 AND operation_id IS NOT DISTINCT FROM $2
        ORDER BY dedupe_key, created_at DESC`,
      [clusterId, operationId],
    );
    return new Map(r.rows.map((row) => [row.dedupe_key as string, toTask(row)]));
  }

  /** The newest task of each of these dedupe keys (tasks outside operations: diagnostics). */
  async latestOfKeys(clusterId: string, keys: string[]): Promise<Map<string, TaskRow>> {
    if (!keys.length) return new Map();
    const r = await this.pool.query(
      `SELECT DISTINCT ON (dedupe_key) * FROM tasks WHERE cluster_id = $1 AND operation_id IS NULL AND dedupe_key = ANY($2::text[])
        ORDER BY dedupe_key, created_at DESC`,
      [clusterId, keys],
    );
    return new Map(r.rows.map((row) => [row.dedupe_key as string, toTask(row)]));
  }

  /** Keys and bytes moved by the finished runs of a migration before `exceptTaskId` (a run resumed after a pause starts counting at 0). */
  async movedBefore(operationId: string, dedupeKey: string, exceptTaskId: string): Promise<{ keys: number; bytes: number }> {
    const r = await this.pool.query(
      `SELECT coalesce(sum((result->>'keysMoved')::float8), 0) AS keys, coalesce(sum((result->>'bytesMoved')::float8), 0) AS bytes
         FROM tasks WHERE operation_id = $1 AND dedupe_key = $2 AND id <> $3 AND result IS NOT NULL`,
      [operationId, dedupeKey, exceptTaskId],
    );
    return { keys: Number(r.rows[0].keys), bytes: Number(r.rows[0].bytes) };
  }

  /** Failed runs of this key after its last successful one (healing's backoff starts over after a success). */
  async failuresSinceSuccess(clusterId: string, operationId: string | null, dedupeKey: string): Promise<number> {
    const r = await this.pool.query(
      `SELECT count(*)::int AS n FROM tasks t
        WHERE t.cluster_id = $1 AND t.operation_id IS NOT DISTINCT FROM $2 AND t.dedupe_key = $3 AND t.state = 'failed'
          AND t.created_at > coalesce((SELECT max(created_at) FROM tasks s
                                        WHERE s.cluster_id = $1 AND s.operation_id IS NOT DISTINCT FROM $2 AND s.dedupe_key = $3 AND s.state = 'succeeded'), '-infinity')`,
      [clusterId, operationId, dedupeKey],
    );
    return r.rows[0].n;
  }

  async countFailures(clusterId: string, operationId: string | null, dedupeKey: string): Promise<number> {
    const r = await this.pool.query(
      `SELECT count(*)::int AS n FROM tasks WHERE cluster_id = $1 AND operation_id IS NOT DISTINCT FROM $2 AND dedupe_key = $3 AND state = 'failed'`,
      [clusterId, operationId, dedupeKey],
    );
    return r.rows[0].n;
  }
}
