import type pg from 'pg';
import type {
  DiskProfile, DiskProfilePreset, DiskProfileRequest, DiskProfileStatus, DurabilityAdvice, NodeDiskFacts, ProfileResult, ProfileWorkload,
} from '@strata/api';
import { isUniqueViolation } from '../db/pg-errors';

type ClusterActivity = DiskProfile['clusters'][number];

const toProfile = (r: any): DiskProfile => ({
  id: r.id,
  nodeId: r.node_id,
  nodeName: r.node_name ?? '',
  status: r.status,
  preset: r.preset,
  workloads: r.workloads,
  progress: Number(r.progress),
  detail: r.detail,
  facts: r.facts,
  results: r.results,
  advice: r.advice,
  clusters: r.clusters,
  error: r.error,
  createdAt: r.created_at.toISOString(),
  finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
});

const SELECT = 'SELECT p.*, n.name AS node_name FROM disk_profiles p JOIN nodes n ON n.id = p.node_id';

/** Disk profiles in PostgreSQL: one running per node (the partial unique index answers the race). */
export class DiskProfileStore {
  constructor(private readonly pool: pg.Pool) {}

  /** Inserts a running profile; false when the node already runs one. */
  async insert(p: { id: string; nodeId: string; preset: DiskProfilePreset | null; request: DiskProfileRequest; workloads: ProfileWorkload[]; clusters: ClusterActivity[] }): Promise<boolean> {
    try {
      await this.pool.query(
        `INSERT INTO disk_profiles (id, node_id, status, preset, request, workloads, clusters) VALUES ($1, $2, 'running', $3, $4, $5, $6)`,
        [p.id, p.nodeId, p.preset, JSON.stringify(p.request), JSON.stringify(p.workloads), JSON.stringify(p.clusters)],
      );
      return true;
    } catch (err) {
      if (isUniqueViolation(err, 'disk_profiles_one_running')) return false;
      throw err;
    }
  }

  async get(id: string): Promise<DiskProfile | null> {
    const r = await this.pool.query(`${SELECT} WHERE p.id = $1`, [id]);
    return r.rows[0] ? toProfile(r.rows[0]) : null;
  }

  async listForNode(nodeId: string, limit = 50): Promise<DiskProfile[]> {
    const r = await this.pool.query(`${SELECT} WHERE p.node_id = $1 ORDER BY p.created_at DESC LIMIT $2`, [nodeId, limit]);
    return r.rows.map(toProfile);
  }

  /** The newest completed profile of each node that has advice. */
  async latestAdvice(): Promise<{ nodeId: string; nodeName: string; profileId: string; profiledAt: string; advice: DurabilityAdvice }[]> {
    const r = await this.pool.query(
      `SELECT DISTINCT ON (p.node_id) p.node_id, n.name AS node_name, p.id, p.finished_at, p.advice
         FROM disk_profiles p JOIN nodes n ON n.id = p.node_id
        WHERE p.status = 'completed' AND p.advice IS NOT NULL
        ORDER BY p.node_id, p.finished_at DESC`,
    );
    return r.rows.map((x) => ({ nodeId: x.node_id, nodeName: x.node_name, profileId: x.id, profiledAt: x.finished_at.toISOString(), advice: x.advice }));
  }

  /** Records an agent's report on a running profile; returns whether it should stop (cancelled, or no longer running). */
  async report(id: string, r: { progress: number; detail?: string; facts?: NodeDiskFacts; result?: ProfileResult }): Promise<{ stop: boolean }> {
    const q = await this.pool.query(
      `UPDATE disk_profiles SET progress = GREATEST(progress, $2), detail = coalesce($3, detail), facts = coalesce($4, facts),
              results = CASE WHEN $5::jsonb IS NULL THEN results ELSE results || jsonb_build_array($5::jsonb) END, last_report_at = now()
        WHERE id = $1 AND status = 'running' RETURNING cancel_requested`,
      [id, r.progress, r.detail ?? null, r.facts ? JSON.stringify(r.facts) : null, r.result ? JSON.stringify(r.result) : null],
    );
    return { stop: !q.rows[0] || q.rows[0].cancel_requested };
  }

  /** Ends a running profile (a finished one is left as it is); false when it was not running. */
  async finish(id: string, f: { status: Exclude<DiskProfileStatus, 'running'>; error?: { code: string; message: string }; advice?: DurabilityAdvice | null }): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE disk_profiles SET status = $2, error = $3, advice = $4, progress = CASE WHEN $2 = 'completed' THEN 1 ELSE progress END, finished_at = now()
        WHERE id = $1 AND status = 'running'`,
      [id, f.status, f.error ? JSON.stringify(f.error) : null, f.advice ? JSON.stringify(f.advice) : null],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async requestCancel(id: string): Promise<boolean> {
    const r = await this.pool.query(`UPDATE disk_profiles SET cancel_requested = true WHERE id = $1 AND status = 'running'`, [id]);
    return (r.rowCount ?? 0) > 0;
  }

  /** Running profiles whose agent has been silent since before `silentSinceMs` (epoch ms). */
  async silent(silentSinceMs: number): Promise<string[]> {
    const r = await this.pool.query(`SELECT id FROM disk_profiles WHERE status = 'running' AND last_report_at < to_timestamp($1 / 1000.0)`, [silentSinceMs]);
    return r.rows.map((x) => x.id);
  }

  /** The profile a node's disk-profile task runs (null: no such task of that node). */
  async profileOfTask(taskId: string, nodeId: string): Promise<string | null> {
    const r = await this.pool.query(`SELECT payload->>'profileId' AS id FROM tasks WHERE id = $1 AND node_id = $2 AND kind = 'disk-profile'`, [taskId, nodeId]);
    return r.rows[0]?.id ?? null;
  }

  async setClusters(id: string, clusters: ClusterActivity[]): Promise<void> {
    await this.pool.query(`UPDATE disk_profiles SET clusters = $2 WHERE id = $1 AND status = 'running'`, [id, JSON.stringify(clusters)]);
  }
}
