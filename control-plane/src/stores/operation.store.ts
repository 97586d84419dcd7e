import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { MigrationProgress, Operation, OperationKind, OperationState, OperationStep } from '@strata/api';
import type { Db } from '../db/tx';

export interface OperationRow extends Operation {
  organizationId: string;
  /** What an update-cluster or switchover operation carries out (see reconciler/update-plan.ts). */
  plan: unknown;
}

const toOp = (r: any): OperationRow => ({
  id: r.id,
  clusterId: r.cluster_id,
  organizationId: r.organization_id,
  kind: r.kind as OperationKind,
  state: r.state as OperationState,
  progress: r.progress,
  steps: r.steps as OperationStep[],
  ...(r.error ? { error: r.error } : {}),
  ...(r.migration ? { migration: r.migration } : {}),
  ...(r.kind === 'update-cluster' ? { paused: r.paused, cancelRequested: r.cancel_requested } : {}),
  ...(r.starts_at ? { startsAt: r.starts_at.toISOString() } : {}),
  plan: r.plan ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  ...(r.finished_at ? { finishedAt: r.finished_at.toISOString() } : {}),
});

export const publicOperation = ({ organizationId: _o, plan: _p, ...op }: OperationRow): Operation => op;

export class OperationStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(o: { clusterId: string; organizationId: string; kind: OperationKind; steps: OperationStep[]; plan?: unknown }, db: Db): Promise<OperationRow> {
    const r = await db.query(
      `INSERT INTO operations (id, cluster_id, organization_id, kind, state, steps, plan) VALUES ($1, $2, $3, $4, 'pending', $5, $6) RETURNING *`,
      [randomUUID(), o.clusterId, o.organizationId, o.kind, JSON.stringify(o.steps), o.plan === undefined ? null : JSON.stringify(o.plan)],
    );
    return toOp(r.rows[0]);
  }

  async get(id: string, organizationId?: string): Promise<OperationRow | null> {
    const r = organizationId
      ? await this.pool.query('SELECT * FROM operations WHERE id = $1 AND organization_id = $2', [id, organizationId])
      : await this.pool.query('SELECT * FROM operations WHERE id = $1', [id]);
    return r.rows[0] ? toOp(r.rows[0]) : null;
  }

  async listForCluster(clusterId: string, organizationId: string): Promise<OperationRow[]> {
    const r = await this.pool.query(
      'SELECT * FROM operations WHERE cluster_id = $1 AND organization_id = $2 ORDER BY created_at DESC LIMIT 50',
      [clusterId, organizationId],
    );
    return r.rows.map(toOp);
  }

  /** The oldest unfinished operation of a cluster: the one the reconciler drives. */
  async active(clusterId: string, db: Db = this.pool): Promise<OperationRow | null> {
    const r = await db.query(
      `SELECT * FROM operations WHERE cluster_id = $1 AND state IN ('pending', 'running') ORDER BY created_at LIMIT 1`,
      [clusterId],
    );
    return r.rows[0] ? toOp(r.rows[0]) : null;
  }

  async cancelActive(clusterId: string, reason: string, db: Db): Promise<void> {
    await db.query(
      `UPDATE operations SET state = 'cancelled', error = $2, updated_at = now(), finished_at = now()
        WHERE cluster_id = $1 AND state IN ('pending', 'running')`,
      [clusterId, JSON.stringify({ code: 'superseded', message: reason })],
    );
  }

  /**
   * Guarded write: an operation only moves forward. A finished operation
   * (succeeded, failed, cancelled) is never written again, and progress
   * never goes back. Returns false when the row refused the write (e.g. a
   * delete cancelled the create this pass was driving).
   */
  async save(op: Pick<Operation, 'id' | 'state' | 'progress' | 'steps' | 'error' | 'startsAt'>, db: Db = this.pool): Promise<boolean> {
    const finished = op.state === 'succeeded' || op.state === 'failed' || op.state === 'cancelled';
    const r = await db.query(
      `UPDATE operations SET state = $2, progress = GREATEST(progress, $3), steps = $4, error = $5, updated_at = now(),
              finished_at = CASE WHEN $6 THEN coalesce(finished_at, now()) ELSE NULL END, starts_at = $7
        WHERE id = $1 AND state IN ('pending', 'running')`,
      [op.id, op.state, op.progress, JSON.stringify(op.steps), op.error ? JSON.stringify(op.error) : null, finished, op.startsAt ?? null],
    );
    return r.rowCount === 1;
  }

  /** Live slot-migration progress of an update (written by the reconciler from the agent's reports). */
  async setMigration(id: string, migration: MigrationProgress, db: Db = this.pool): Promise<void> {
    await db.query(`UPDATE operations SET migration = $2, updated_at = now() WHERE id = $1 AND state IN ('pending', 'running')`, [id, JSON.stringify(migration)]);
  }

  /** Cancels a restart that has not started (it waits for the maintenance window). False when it started or is not one. */
  async cancelWaiting(id: string, organizationId: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE operations SET state = 'cancelled', starts_at = NULL, updated_at = now(), finished_at = now(),
              error = '{"code":"cancelled","message":"cancelled before the maintenance window opened"}'::jsonb
        WHERE id = $1 AND organization_id = $2 AND kind = 'restart-cluster' AND state = 'pending'`,
      [id, organizationId],
    );
    return r.rowCount === 1;
  }

  /** Pause, resume or cancel an unfinished update. False when it is finished (or not an update). */
  async setControl(id: string, organizationId: string, change: { paused?: boolean; cancelRequested?: boolean }): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE operations SET paused = coalesce($3, paused), cancel_requested = coalesce($4, cancel_requested), updated_at = now()
        WHERE id = $1 AND organization_id = $2 AND kind = 'update-cluster' AND state IN ('pending', 'running')`,
      [id, organizationId, change.paused ?? null, change.cancelRequested ?? null],
    );
    return r.rowCount === 1;
  }

  /**
   * Should the task stop early (its update is paused, or cancelled while the
   * task is one of `stopOnCancel`, the dedupe keys of work a cancel undoes)?
   */
  async taskShouldStop(taskId: string, stopOnCancel: string[]): Promise<boolean> {
    const r = await this.pool.query(
      `SELECT o.paused, o.cancel_requested, t.dedupe_key = ANY($2::text[]) AS undone_by_cancel
         FROM tasks t JOIN operations o ON o.id = t.operation_id WHERE t.id = $1`,
      [taskId, stopOnCancel],
    );
    const row = r.rows[0];
    if (!row) return false;
    return row.paused || (row.cancel_requested && row.undone_by_cancel);
  }
}
