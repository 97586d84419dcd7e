import type pg from 'pg';
import type { Benchmark, BenchmarkRequest, BenchmarkResult, BenchmarkState, BenchmarkWorkload } from '@strata/api';
import { isUniqueViolation } from '../db/pg-errors';

/** Raw histograms kept for export (HdrHistogram compressed base64, microseconds). */
export interface BenchmarkHistograms {
  /** merged over every worker, steady window, per op: service (and response in open loop) */
  ops: { op: string; service: string; response?: string }[];
  /** per second, merged over workers: t (s since steady start), op, service histogram */
  intervals: { t: number; op: string; service: string }[];
  startTimeMs: number;
}

export interface BenchmarkRow extends Benchmark {
  organizationId: string;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);
const toRow = (r: any): BenchmarkRow => ({
  id: r.id,
  clusterId: r.cluster_id,
  organizationId: r.organization_id,
  workload: r.workload,
  state: r.state,
  progress: Number(r.progress),
  detail: r.detail ?? undefined,
  request: r.request,
  result: r.result ?? undefined,
  error: r.error ?? undefined,
  createdAt: r.created_at.toISOString(),
  startedAt: iso(r.started_at),
  finishedAt: iso(r.finished_at),
});

export const publicBenchmark = ({ organizationId: _o, ...b }: BenchmarkRow): Benchmark => b;

export const ACTIVE_STATES: readonly BenchmarkState[] = ['pending', 'loading', 'warmup', 'running'];

export class BenchmarkStore {
  constructor(private readonly pool: pg.Pool) {}

  /** Inserts a pending run; false when the cluster already has an active one. */
  async insert(b: { id: string; clusterId: string; organizationId: string; workload: BenchmarkWorkload; request: BenchmarkRequest }): Promise<boolean> {
    try {
      await this.pool.query(
        `INSERT INTO benchmarks (id, cluster_id, organization_id, workload, state, request) VALUES ($1, $2, $3, $4, 'pending', $5)`,
        [b.id, b.clusterId, b.organizationId, b.workload, JSON.stringify(b.request)],
      );
      return true;
    } catch (err) {
      if (isUniqueViolation(err, 'benchmarks_one_active')) return false;
      throw err;
    }
  }

  async get(id: string, organizationId?: string): Promise<BenchmarkRow | null> {
    const r = await this.pool.query(
      `SELECT * FROM benchmarks WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
      [id, organizationId ?? null],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async listForCluster(clusterId: string, organizationId: string, limit = 50): Promise<BenchmarkRow[]> {
    const r = await this.pool.query(
      `SELECT * FROM benchmarks WHERE cluster_id = $1 AND organization_id = $2 ORDER BY created_at DESC LIMIT $3`,
      [clusterId, organizationId, limit],
    );
    return r.rows.map(toRow);
  }

  /** Progress of an active run; never touches a finished one. */
  async progress(id: string, state: BenchmarkState, progress: number, detail?: string): Promise<void> {
    await this.pool.query(
      `UPDATE benchmarks SET state = $2, progress = GREATEST(progress, $3), detail = $4, started_at = coalesce(started_at, now())
        WHERE id = $1 AND state IN ('pending', 'loading', 'warmup', 'running')`,
      [id, state, progress, detail ?? null],
    );
  }

  async finish(
    id: string,
    f: { state: 'succeeded' | 'failed' | 'cancelled'; result?: BenchmarkResult; histograms?: BenchmarkHistograms; error?: { code: string; message: string } },
  ): Promise<void> {
    await this.pool.query(
      `UPDATE benchmarks SET state = $2, result = $3, histograms = $4, error = $5, finished_at = now(),
              progress = CASE WHEN $2 = 'succeeded' THEN 1 ELSE progress END
        WHERE id = $1 AND state IN ('pending', 'loading', 'warmup', 'running')`,
      [id, f.state, f.result ? JSON.stringify(f.result) : null, f.histograms ? JSON.stringify(f.histograms) : null, f.error ? JSON.stringify(f.error) : null],
    );
  }

  async histograms(id: string): Promise<BenchmarkHistograms | null> {
    const r = await this.pool.query('SELECT histograms FROM benchmarks WHERE id = $1', [id]);
    return r.rows[0]?.histograms ?? null;
  }

  /** The benchmark a `benchmark` task of this node belongs to. */
  async benchmarkOfTask(taskId: string, nodeId: string): Promise<string | null> {
    const r = await this.pool.query(`SELECT payload->>'benchmarkId' AS id FROM tasks WHERE id = $1 AND node_id = $2 AND kind = 'benchmark'`, [taskId, nodeId]);
    return r.rows[0]?.id ?? null;
  }

  /** Runs left active by a control plane that stopped: they cannot resume. */
  async failAbandoned(message: string): Promise<number> {
    const r = await this.pool.query(
      `UPDATE benchmarks SET state = 'failed', finished_at = now(), error = $1 WHERE state IN ('pending', 'loading', 'warmup', 'running')`,
      [JSON.stringify({ code: 'abandoned', message })],
    );
    return r.rowCount ?? 0;
  }
}
