/** Alert rules, alerts, notification channels and deliveries as stored (tables of migration 050). */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ALERT_METRICS, type Alert, type AlertMetric, type AlertRule, type Delivery, type NotificationChannel } from '@strata/api';
import type { Db } from '../db/tx';

export interface RuleRow {
  id: string;
  organizationId: string;
  clusterId: string | null;
  name: string;
  metric: AlertMetric;
  threshold: number;
  forSeconds: number;
  channelIds: string[];
  enabled: boolean;
  createdAt: Date;
}

export interface ChannelRow {
  id: string;
  organizationId: string;
  type: 'webhook' | 'email';
  name: string;
  url: string | null;
  format: 'json' | 'slack' | null;
  secretEnc: string | null;
  to: string[] | null;
  createdAt: Date;
}

export interface DeliveryRow {
  id: string;
  organizationId: string;
  channelId: string;
  alertId: string | null;
  event: 'firing' | 'resolved' | 'test';
  payload: unknown;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Delivery['attempts'];
  createdAt: Date;
  deliveredAt: Date | null;
}

const ruleRow = (r: any): RuleRow => ({
  id: r.id, organizationId: r.organization_id, clusterId: r.cluster_id, name: r.name, metric: r.metric, threshold: r.threshold,
  forSeconds: r.for_seconds, channelIds: r.channel_ids, enabled: r.enabled, createdAt: r.created_at,
});
const channelRow = (r: any): ChannelRow => ({
  id: r.id, organizationId: r.organization_id, type: r.type, name: r.name, url: r.url, format: r.format, secretEnc: r.secret_enc, to: r.email_to, createdAt: r.created_at,
});
const deliveryRow = (r: any): DeliveryRow => ({
  id: r.id, organizationId: r.organization_id, channelId: r.channel_id, alertId: r.alert_id, event: r.event, payload: r.payload, status: r.status,
  attempts: r.attempts, createdAt: r.created_at, deliveredAt: r.delivered_at,
});
export const publicAlert = (r: any): Alert => ({
  id: r.id, ruleId: r.rule_id, ruleName: r.rule_name, metric: r.metric, threshold: r.threshold, forSeconds: r.for_seconds, clusterId: r.cluster_id,
  clusterName: r.cluster_name, state: r.state, value: r.value, unit: ALERT_METRICS[r.metric as AlertMetric]?.unit ?? '',
  startedAt: r.started_at.toISOString(), resolvedAt: r.resolved_at?.toISOString() ?? null,
});
export const publicRule = (r: RuleRow, firing: number): AlertRule => ({
  id: r.id, clusterId: r.clusterId, name: r.name, metric: r.metric, threshold: r.threshold, forSeconds: r.forSeconds, channelIds: r.channelIds,
  enabled: r.enabled, firing, createdAt: r.createdAt.toISOString(),
});
export const publicChannel = (c: ChannelRow): NotificationChannel => ({
  id: c.id, type: c.type, name: c.name, url: c.url, format: c.format, to: c.to, hasSecret: !!c.secretEnc, createdAt: c.createdAt.toISOString(),
});
export const publicDelivery = (d: DeliveryRow): Delivery => ({
  id: d.id, channelId: d.channelId, alertId: d.alertId, event: d.event, status: d.status, attempts: d.attempts,
  createdAt: d.createdAt.toISOString(), deliveredAt: d.deliveredAt?.toISOString() ?? null,
});

/** A rule evaluated for one cluster (an organization rule once per cluster). */
export interface RuleTarget {
  rule: RuleRow;
  cluster: { id: string; name: string; phase: string };
}

export class AlertStore {
  constructor(private readonly pool: pg.Pool) {}

  // Rules

  async insertRule(r: Omit<RuleRow, 'id' | 'createdAt'>): Promise<RuleRow> {
    const q = await this.pool.query(
      `INSERT INTO alert_rules (id, organization_id, cluster_id, name, metric, threshold, for_seconds, channel_ids, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [randomUUID(), r.organizationId, r.clusterId, r.name, r.metric, r.threshold, r.forSeconds, r.channelIds, r.enabled],
    );
    return ruleRow(q.rows[0]);
  }

  async getRule(id: string, organizationId: string): Promise<RuleRow | null> {
    const q = await this.pool.query('SELECT * FROM alert_rules WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    return q.rows[0] ? ruleRow(q.rows[0]) : null;
  }

  /** The organization's rules; with a cluster: that cluster's and the organization-wide ones. */
  async listRules(organizationId: string, clusterId?: string): Promise<RuleRow[]> {
    const q = await this.pool.query(
      `SELECT * FROM alert_rules WHERE organization_id = $1 AND ($2::uuid IS NULL OR cluster_id = $2 OR cluster_id IS NULL) ORDER BY created_at`,
      [organizationId, clusterId ?? null],
    );
    return q.rows.map(ruleRow);
  }

  async updateRule(id: string, organizationId: string, p: Partial<Pick<RuleRow, 'name' | 'threshold' | 'forSeconds' | 'channelIds' | 'enabled'>>): Promise<RuleRow | null> {
    const q = await this.pool.query(
      `UPDATE alert_rules SET name = COALESCE($3, name), threshold = COALESCE($4, threshold), for_seconds = COALESCE($5, for_seconds),
         channel_ids = COALESCE($6, channel_ids), enabled = COALESCE($7, enabled)
       WHERE id = $1 AND organization_id = $2 RETURNING *`,
      [id, organizationId, p.name ?? null, p.threshold ?? null, p.forSeconds ?? null, p.channelIds ?? null, p.enabled ?? null],
    );
    return q.rows[0] ? ruleRow(q.rows[0]) : null;
  }

  async deleteRule(id: string, organizationId: string): Promise<boolean> {
    const q = await this.pool.query('DELETE FROM alert_rules WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    return q.rowCount === 1;
  }

  /** Firing alerts per rule id (for the API's `firing`). */
  async firingCounts(ruleIds: string[]): Promise<Map<string, number>> {
    if (!ruleIds.length) return new Map();
    const q = await this.pool.query(`SELECT rule_id, count(*)::int AS n FROM alerts WHERE state = 'firing' AND rule_id = ANY($1) GROUP BY rule_id`, [ruleIds]);
    return new Map(q.rows.map((r) => [r.rule_id, r.n]));
  }

  /** Every enabled rule with each cluster it applies to (its own, or every cluster of its organization). */
  async targets(): Promise<RuleTarget[]> {
    const q = await this.pool.query(
      `SELECT r.*, c.id AS c_id, c.name AS c_name, c.phase AS c_phase
         FROM alert_rules r JOIN clusters c ON (c.id = r.cluster_id OR (r.cluster_id IS NULL AND c.organization_id = r.organization_id))
        WHERE r.enabled AND c.phase <> 'deleting'`,
    );
    return q.rows.map((r) => ({ rule: ruleRow(r), cluster: { id: r.c_id, name: r.c_name, phase: r.c_phase } }));
  }

  /** Phases of clusters now. */
  async phases(clusterIds: string[]): Promise<Map<string, string>> {
    const q = await this.pool.query('SELECT id, phase FROM clusters WHERE id = ANY($1)', [clusterIds]);
    return new Map(q.rows.map((r) => [r.id, r.phase]));
  }

  /** Times of failovers (not switchovers), node-down events and failed backups of these clusters since `since`. */
  async happenings(clusterIds: string[], since: Date): Promise<{ clusterId: string; kind: 'failover' | 'node_down' | 'backup_failed'; at: number }[]> {
    const q = await this.pool.query(
      `SELECT cluster_id, CASE type WHEN 'failover' THEN 'failover' ELSE 'node_down' END AS kind, at FROM cluster_events
        WHERE cluster_id = ANY($1) AND at > $2 AND (type = 'node-down' OR (type = 'failover' AND body->>'cause' IS DISTINCT FROM 'switchover'))
       UNION ALL
       SELECT cluster_id, 'backup_failed', finished_at FROM backups WHERE cluster_id = ANY($1) AND status = 'failed' AND finished_at > $2
       LIMIT 10000`,
      [clusterIds, since],
    );
    return q.rows.map((r) => ({ clusterId: r.cluster_id, kind: r.kind, at: new Date(r.at).getTime() }));
  }

  // Alerts

  /** Firing alerts: `ruleId/clusterId` -> alert id. */
  async firing(): Promise<Map<string, string>> {
    const q = await this.pool.query(`SELECT id, rule_id, cluster_id FROM alerts WHERE state = 'firing'`);
    return new Map(q.rows.map((r) => [`${r.rule_id}/${r.cluster_id}`, r.id]));
  }

  /** Records a firing alert; null when one of this rule on this cluster is already firing. */
  async fire(t: RuleTarget, value: number, at: Date, db: Db = this.pool): Promise<Alert | null> {
    const q = await db.query(
      `INSERT INTO alerts (id, organization_id, rule_id, rule_name, metric, threshold, for_seconds, cluster_id, cluster_name, state, value, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'firing', $10, $11) ON CONFLICT (rule_id, cluster_id) WHERE state = 'firing' DO NOTHING RETURNING *`,
      [randomUUID(), t.rule.organizationId, t.rule.id, t.rule.name, t.rule.metric, t.rule.threshold, t.rule.forSeconds, t.cluster.id, t.cluster.name, value, at],
    );
    return q.rows[0] ? publicAlert(q.rows[0]) : null;
  }

  async resolve(alertId: string, at: Date, db: Db = this.pool): Promise<Alert | null> {
    const q = await db.query(`UPDATE alerts SET state = 'resolved', resolved_at = $2 WHERE id = $1 AND state = 'firing' RETURNING *`, [alertId, at]);
    return q.rows[0] ? publicAlert(q.rows[0]) : null;
  }

  async listAlerts(organizationId: string, f: { state?: 'firing' | 'resolved'; clusterId?: string; limit: number }): Promise<Alert[]> {
    const q = await this.pool.query(
      `SELECT * FROM alerts WHERE organization_id = $1 AND ($2::text IS NULL OR state = $2) AND ($3::uuid IS NULL OR cluster_id = $3)
        ORDER BY started_at DESC LIMIT $4`,
      [organizationId, f.state ?? null, f.clusterId ?? null, f.limit],
    );
    return q.rows.map(publicAlert);
  }

  // Channels

  async insertChannel(c: Omit<ChannelRow, 'id' | 'createdAt'>): Promise<ChannelRow> {
    const q = await this.pool.query(
      `INSERT INTO notification_channels (id, organization_id, type, name, url, format, secret_enc, email_to) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [randomUUID(), c.organizationId, c.type, c.name, c.url, c.format, c.secretEnc, c.to],
    );
    return channelRow(q.rows[0]);
  }

  async getChannel(id: string, organizationId?: string): Promise<ChannelRow | null> {
    const q = await this.pool.query('SELECT * FROM notification_channels WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)', [id, organizationId ?? null]);
    return q.rows[0] ? channelRow(q.rows[0]) : null;
  }

  async listChannels(organizationId: string): Promise<ChannelRow[]> {
    const q = await this.pool.query('SELECT * FROM notification_channels WHERE organization_id = $1 ORDER BY created_at', [organizationId]);
    return q.rows.map(channelRow);
  }

  /** The ids among `ids` that are channels of the organization. */
  async existingChannels(organizationId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const q = await this.pool.query('SELECT id FROM notification_channels WHERE organization_id = $1 AND id = ANY($2)', [organizationId, ids]);
    return new Set(q.rows.map((r) => r.id));
  }

  async deleteChannel(id: string, organizationId: string): Promise<boolean> {
    const q = await this.pool.query('DELETE FROM notification_channels WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    if (q.rowCount !== 1) return false;
    await this.pool.query('UPDATE alert_rules SET channel_ids = array_remove(channel_ids, $1::uuid) WHERE organization_id = $2', [id, organizationId]);
    return true;
  }

  // Deliveries

  /**
   * Queues one delivery per channel. A channel already holding `maxPending` undelivered ones gives
   * up its oldest (failed, "queue full"), so a dead endpoint's backlog stays bounded.
   */
  async enqueue(organizationId: string, channelIds: string[], alertId: string | null, event: DeliveryRow['event'], payloadFor: (deliveryId: string) => unknown, maxPending: number, db: Db = this.pool): Promise<DeliveryRow[]> {
    const out: DeliveryRow[] = [];
    for (const channelId of channelIds) {
      const id = randomUUID();
      const q = await db.query(
        `INSERT INTO notification_deliveries (id, organization_id, channel_id, alert_id, event, payload, status)
         SELECT $1, $2, $3, $4, $5, $6, 'pending' WHERE EXISTS (SELECT 1 FROM notification_channels WHERE id = $3 AND organization_id = $2) RETURNING *`,
        [id, organizationId, channelId, alertId, event, JSON.stringify(payloadFor(id))],
      );
      if (!q.rows[0]) continue;
      out.push(deliveryRow(q.rows[0]));
      await db.query(
        `UPDATE notification_deliveries SET status = 'failed',
           attempts = attempts || jsonb_build_array(jsonb_build_object('attempt', jsonb_array_length(attempts) + 1, 'at', now(), 'statusCode', null,
             'error', 'dropped: the channel has ' || $2::int || ' undelivered notifications (queue full)', 'durationMs', 0))
         WHERE id IN (SELECT id FROM notification_deliveries WHERE channel_id = $1 AND status = 'pending' ORDER BY created_at DESC OFFSET $2)`,
        [channelId, maxPending],
      );
    }
    return out;
  }

  /**
   * Claims up to `limit` due deliveries, one per channel and none of the `busy` channels, leasing each
   * for `leaseMs` (a crashed sender's claim comes back when the lease ends).
   */
  async claimDue(limit: number, busy: string[], leaseMs: number): Promise<(DeliveryRow & { channel: ChannelRow })[]> {
    if (limit <= 0) return [];
    const q = await this.pool.query(
      `WITH due AS (
         SELECT id FROM (
           SELECT DISTINCT ON (channel_id) id, next_attempt_at FROM notification_deliveries
            WHERE status = 'pending' AND next_attempt_at <= now() AND NOT (channel_id = ANY($2::uuid[]))
            ORDER BY channel_id, next_attempt_at
         ) oldest ORDER BY next_attempt_at LIMIT $1
       ), claimed AS (
         UPDATE notification_deliveries d SET next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
           FROM due WHERE d.id = due.id AND d.status = 'pending' RETURNING d.*
       )
       SELECT claimed.*, c.organization_id AS c_org, c.type AS c_type, c.name AS c_name, c.url AS c_url, c.format AS c_format, c.secret_enc AS c_secret, c.email_to AS c_to, c.created_at AS c_created
         FROM claimed JOIN notification_channels c ON c.id = claimed.channel_id`,
      [limit, busy, leaseMs],
    );
    return q.rows.map((r) => ({
      ...deliveryRow(r),
      channel: channelRow({ id: r.channel_id, organization_id: r.c_org, type: r.c_type, name: r.c_name, url: r.c_url, format: r.c_format, secret_enc: r.c_secret, email_to: r.c_to, created_at: r.c_created }),
    }));
  }

  /** When the next pending delivery falls due (ms since the epoch), or null when nothing is pending. */
  async nextDueAt(): Promise<number | null> {
    const q = await this.pool.query<{ at: Date | null }>(`SELECT min(next_attempt_at) AS at FROM notification_deliveries WHERE status = 'pending'`);
    return q.rows[0]?.at ? q.rows[0].at.getTime() : null;
  }

  /** Records an attempt: delivered, retried at `retryAt`, or failed for good (retryAt null). */
  async recordAttempt(id: string, attempt: Delivery['attempts'][number], outcome: { delivered: true } | { delivered: false; retryAt: Date | null }): Promise<void> {
    const status = outcome.delivered ? 'delivered' : outcome.retryAt ? 'pending' : 'failed';
    await this.pool.query(
      `UPDATE notification_deliveries SET attempts = attempts || $2::jsonb, status = $3, next_attempt_at = COALESCE($4, next_attempt_at),
         delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE NULL END
       WHERE id = $1 AND status = 'pending'`,
      [id, JSON.stringify([attempt]), status, outcome.delivered ? null : outcome.retryAt],
    );
  }

  async getDelivery(id: string): Promise<DeliveryRow | null> {
    const q = await this.pool.query('SELECT * FROM notification_deliveries WHERE id = $1', [id]);
    return q.rows[0] ? deliveryRow(q.rows[0]) : null;
  }

  async listDeliveries(channelId: string, organizationId: string, limit = 100): Promise<DeliveryRow[]> {
    const q = await this.pool.query(
      'SELECT * FROM notification_deliveries WHERE channel_id = $1 AND organization_id = $2 ORDER BY created_at DESC LIMIT $3', [channelId, organizationId, limit],
    );
    return q.rows.map(deliveryRow);
  }

  /** Drops finished deliveries older than `days`. */
  async prune(days: number): Promise<number> {
    const q = await this.pool.query(`DELETE FROM notification_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`, [days]);
    return q.rowCount ?? 0;
  }
}
