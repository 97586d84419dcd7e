import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ClusterEvent, type ClusterEventType } from '@strata/api';
import type { Db } from '../db/tx';

/** An event as written: the store adds id, clusterId and (unless given) the time. */
export type NewClusterEvent = DistributiveOmit<ClusterEvent, 'id' | 'clusterId' | 'at'> & { at?: string };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Cluster events (failover, restarts, data loss, ...), newest first. */
export class EventStore {
  /** Dedupe keys this process has written outside a transaction (or found written). */
  private readonly recorded = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Records an event once: a second call with the same `dedupeKey` (another
   * pass seeing the same happening) writes nothing. Returns true when written.
   */
  async record(cluster: { id: string; organizationId: string }, e: NewClusterEvent, dedupeKey?: string, db: Db = this.pool): Promise<boolean> {
    // A happening this process already recorded (passes repeat while a node stays down): no round trip.
    if (dedupeKey && this.recorded.has(dedupeKey)) return false;
    const id = randomUUID();
    const at = e.at ?? new Date().toISOString();
    const event = ClusterEvent.parse({ ...e, id, clusterId: cluster.id, at });
    const r = await db.query(
      `INSERT INTO cluster_events (id, cluster_id, organization_id, type, at, body, dedupe_key) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [id, cluster.id, cluster.organizationId, event.type, at, JSON.stringify(event), dedupeKey ?? null],
    );
    if (dedupeKey && db === this.pool) {
      if (this.recorded.size >= 50_000) this.recorded.clear();
      this.recorded.add(dedupeKey);
    }
    return r.rowCount === 1;
  }

  async list(clusterId: string, organizationId: string, opts: { limit: number; before?: string; types?: ClusterEventType[] }): Promise<{ items: ClusterEvent[]; nextCursor: string | null }> {
    const r = await this.pool.query(
      `SELECT seq, body FROM cluster_events
        WHERE cluster_id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR seq < $3::bigint) AND ($5::text[] IS NULL OR type = ANY($5))
        ORDER BY seq DESC LIMIT $4`,
      [clusterId, organizationId, opts.before ?? null, opts.limit + 1, opts.types ?? null],
    );
    const rows = r.rows.slice(0, opts.limit);
    return {
      items: rows.map((row) => row.body as ClusterEvent),
      nextCursor: r.rows.length > opts.limit ? String(rows[rows.length - 1].seq) : null,
    };
  }
}
