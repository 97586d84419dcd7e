import type pg from 'pg';
import type { AuditEntry, AuditList } from '@strata/api';
import type { Principal } from './auth.store';

/** Lone UTF-16 surrogates (which jsonb refuses) as U+FFFD, so an odd string can never cost an entry. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (_key: string, v: unknown) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\ufffd') : v);

const toEntry = (r: any): AuditEntry => ({
  id: String(r.id), at: r.at.toISOString(),
  actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
  action: r.action, targetId: r.target_id, status: r.status, detail: r.detail,
});

/** Who changed what, per organization; append-only. */
export class AuditStore {
  constructor(private readonly pool: pg.Pool) {}

  async record(p: Principal, e: { action: string; targetId: string | null; status: number; detail: Record<string, unknown> }): Promise<void> {
    await this.pool.query(
      `INSERT INTO audit_log (organization_id, actor_type, actor_id, actor_name, action, target_id, status, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [p.organizationId, p.actor.type, p.actor.id, p.actor.name, e.action, e.targetId, e.status, JSON.stringify(e.detail, wellFormed)],
    );
  }

  async list(organizationId: string, q: { limit: number; before?: string }): Promise<AuditList> {
    const r = await this.pool.query(
      `SELECT * FROM audit_log WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
      [organizationId, q.before ?? null, q.limit + 1],
    );
    const items = r.rows.slice(0, q.limit).map(toEntry);
    return { items, nextCursor: r.rows.length > q.limit ? items[items.length - 1]!.id : null };
  }
}
