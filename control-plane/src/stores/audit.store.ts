import type pg from 'pg';
import { auditActionOf, auditActionsOfKind, auditSummary, type AuditEntry, type AuditList, type AuditQuery, type AuditResourceType } from '@strata/api';
import type { Principal } from './auth.store';

/** Lone UTF-16 surrogates (which jsonb refuses) as U+FFFD, so an odd string can never cost an entry. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (_key: string, v: unknown) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\ufffd') : v);

const toEntry = (r: any): AuditEntry => {
  const a = auditActionOf(r.action);
  return {
    id: String(r.id), at: r.at.toISOString(),
    actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
    action: r.action, kind: a.kind, summary: auditSummary(r.action, r.target_name, r.dry_run),
    resource: { type: a.resource, id: r.target_id, name: r.target_name },
    dryRun: r.dry_run, targetId: r.target_id, status: r.status, detail: r.detail,
  };
};

/** The name of what an entry acts on, read when it is written (a cluster deleted later keeps its name in the log). */
const NAME_OF: Partial<Record<AuditResourceType, string>> = {
  cluster: 'SELECT name FROM clusters WHERE id::text = $1',
  node: 'SELECT name FROM nodes WHERE id::text = $1',
  user: 'SELECT email AS name FROM users WHERE id::text = $1',
  token: 'SELECT name FROM api_tokens WHERE id::text = $1',
  organization: 'SELECT name FROM organizations WHERE id::text = $1',
  benchmark: "SELECT b.workload || ' on ' || c.name AS name FROM benchmarks b JOIN clusters c ON c.id = b.cluster_id WHERE b.id::text = $1",
  operation: "SELECT o.kind || ' of ' || c.name AS name FROM operations o JOIN clusters c ON c.id = o.cluster_id WHERE o.id::text = $1",
  'alert-rule': 'SELECT name FROM alert_rules WHERE id::text = $1',
  'notification-channel': 'SELECT name FROM notification_channels WHERE id::text = $1',
  backup: "SELECT 'backup of ' || cluster_name || ' at ' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS name FROM backups WHERE id::text = $1",
};

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Who changed what, per organization; append-only. */
export class AuditStore {
  constructor(private readonly pool: pg.Pool) {}

  async record(p: Pick<Principal, 'organizationId' | 'actor'>, e: { action: string; targetId: string | null; status: number; detail: Record<string, unknown>; targetName?: string | null; dryRun?: boolean }): Promise<void> {
    const sql = e.targetId ? NAME_OF[auditActionOf(e.action).resource] : undefined;
    const name = e.targetName ?? (sql ? ((await this.pool.query(sql, [e.targetId])).rows[0]?.name as string | undefined) ?? null : null);
    await this.pool.query(
      `INSERT INTO audit_log (organization_id, actor_type, actor_id, actor_name, action, target_id, status, detail, target_name, dry_run)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [p.organizationId, p.actor.type, p.actor.id, p.actor.name, e.action, e.targetId, e.status, JSON.stringify(e.detail, wellFormed), name, e.dryRun ?? false],
    );
  }

  async list(organizationId: string, q: AuditQuery): Promise<AuditList> {
    const where = ['organization_id = $1', '($2::bigint IS NULL OR id < $2)'];
    const args: unknown[] = [organizationId, q.before ?? null];
    const add = (clause: (n: string) => string, v: unknown) => {
      args.push(v);
      where.push(clause(`$${args.length}`));
    };
    if (q.actor) add((n) => `actor_name ILIKE ${n}`, like(q.actor));
    if (q.kind) add((n) => `action = ANY(${n}::text[])`, auditActionsOfKind(q.kind));
    if (q.resource) add((n) => `(target_id ILIKE ${n} OR target_name ILIKE ${n})`, like(q.resource));
    if (q.from) add((n) => `at >= ${n}`, q.from);
    if (q.to) add((n) => `at < ${n}`, q.to);
    args.push(q.limit + 1);
    const r = await this.pool.query(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${args.length}`, args);
    const items = r.rows.slice(0, q.limit).map(toEntry);
    return { items, nextCursor: r.rows.length > q.limit ? items[items.length - 1]!.id : null };
  }
}
