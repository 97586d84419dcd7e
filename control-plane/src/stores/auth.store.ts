import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ROLE_SCOPES, type ApiTokenInfo, type Organization, type Role, type Scope, type User } from '@strata/api';
import type { Db } from '../db/tx';
import { effectiveScopes } from '../auth/permissions';

export interface Principal {
  organizationId: string;
  isPlatformAdmin: boolean;
  userId?: string;
  tokenId?: string;
  /** Set for cookie sessions: changes must carry this CSRF token. */
  csrfToken?: string;
  /** What this caller may do now: the token's scopes bounded by its owner's role. */
  scopes: Scope[];
  /** Who is acting, for the audit log. */
  actor: { type: 'user' | 'token' | 'operator'; id: string | null; name: string };
}

const iso = (d: Date) => d.toISOString();
const toOrg = (r: any): Organization => ({ id: r.id, name: r.name, createdAt: iso(r.created_at) });
const toUser = (r: any): User => ({ id: r.id, email: r.email, organizationId: r.organization_id, role: r.role, isAdmin: r.is_admin, createdAt: iso(r.created_at) });
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);
const toToken = (r: any): ApiTokenInfo => ({
  id: r.id, name: r.name, scopes: r.scopes, createdBy: r.created_by ?? null, createdAt: iso(r.created_at),
  expiresAt: isoOrNull(r.expires_at), lastUsedAt: isoOrNull(r.last_used_at), revokedAt: isoOrNull(r.revoked_at),
});
const TOKEN_COLUMNS = `t.id, t.name, t.scopes, t.created_at, t.expires_at, t.last_used_at, t.revoked_at,
  (SELECT email FROM users WHERE id = t.user_id) AS created_by`;

export class AuthStore {
  constructor(private readonly pool: pg.Pool) {}

  async findOrganizationByName(name: string, db: Db = this.pool): Promise<Organization | null> {
    const r = await db.query('SELECT * FROM organizations WHERE name = $1', [name]);
    return r.rows[0] ? toOrg(r.rows[0]) : null;
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const r = await this.pool.query('SELECT * FROM organizations WHERE id = $1', [id]);
    return r.rows[0] ? toOrg(r.rows[0]) : null;
  }

  async createOrganization(name: string, db: Db = this.pool): Promise<Organization> {
    const r = await db.query('INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING *', [randomUUID(), name]);
    return toOrg(r.rows[0]);
  }

  async createUser(u: { organizationId: string; email: string; passwordHash: string; isAdmin: boolean; role: Role }, db: Db = this.pool): Promise<User> {
    const r = await db.query(
      'INSERT INTO users (id, organization_id, email, password_hash, is_admin, role) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [randomUUID(), u.organizationId, u.email.toLowerCase(), u.passwordHash, u.isAdmin, u.role],
    );
    return toUser(r.rows[0]);
  }

  async listUsers(organizationId: string): Promise<User[]> {
    const r = await this.pool.query('SELECT * FROM users WHERE organization_id = $1 ORDER BY created_at, email', [organizationId]);
    return r.rows.map(toUser);
  }

  async getUser(organizationId: string, id: string): Promise<User | null> {
    const r = await this.pool.query('SELECT * FROM users WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  /** Changes a role; refuses (returns 'last_admin') to leave the organization without an admin. */
  async setUserRole(organizationId: string, id: string, role: Role): Promise<User | null | 'last_admin'> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Serialize role changes per organization so two demotions cannot both pass the check.
      await client.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
      const r = await client.query('UPDATE users SET role = $3 WHERE organization_id = $1 AND id = $2 RETURNING *', [organizationId, id, role]);
      if (!r.rows[0]) { await client.query('ROLLBACK'); return null; }
      const admins = await client.query(`SELECT count(*)::int AS n FROM users WHERE organization_id = $1 AND role = 'admin'`, [organizationId]);
      if (admins.rows[0].n === 0) { await client.query('ROLLBACK'); return 'last_admin'; }
      await client.query('COMMIT');
      return toUser(r.rows[0]);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async findUserByEmail(email: string): Promise<(User & { passwordHash: string }) | null> {
    const r = await this.pool.query('SELECT * FROM users WHERE email = $1', [email.toLowerCase()]);
    return r.rows[0] ? { ...toUser(r.rows[0]), passwordHash: r.rows[0].password_hash } : null;
  }

  async setUserPassword(userId: string, passwordHash: string): Promise<void> {
    await this.pool.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  async createApiToken(t: {
    organizationId: string; name: string; tokenHash: string; isPlatformAdmin: boolean;
    scopes?: Scope[]; userId?: string | null; expiresAt?: string | null;
  }, db: Db = this.pool): Promise<ApiTokenInfo> {
    const r = await db.query(
      `WITH t AS (INSERT INTO api_tokens (id, organization_id, name, token_hash, is_platform_admin, scopes, user_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *)
       SELECT ${TOKEN_COLUMNS} FROM t`,
      [randomUUID(), t.organizationId, t.name, t.tokenHash, t.isPlatformAdmin, t.scopes ?? ['admin'], t.userId ?? null, t.expiresAt ?? null],
    );
    return toToken(r.rows[0]);
  }

  /** The organization's tokens, or only those `userId` created; newest first. */
  async listTokens(organizationId: string, userId?: string): Promise<ApiTokenInfo[]> {
    const r = await this.pool.query(
      `SELECT ${TOKEN_COLUMNS} FROM api_tokens t WHERE t.organization_id = $1 AND ($2::uuid IS NULL OR t.user_id = $2) ORDER BY t.created_at DESC`,
      [organizationId, userId ?? null],
    );
    return r.rows.map(toToken);
  }

  /** Revokes (idempotently); null when no such token in the organization (or not the user's own). */
  async revokeToken(organizationId: string, id: string, userId?: string): Promise<ApiTokenInfo | null> {
    const r = await this.pool.query(
      `WITH t AS (UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now())
                   WHERE organization_id = $1 AND id = $2 AND ($3::uuid IS NULL OR user_id = $3) RETURNING *)
       SELECT ${TOKEN_COLUMNS} FROM t`,
      [organizationId, id, userId ?? null],
    );
    return r.rows[0] ? toToken(r.rows[0]) : null;
  }

  /** The caller behind a token: unknown, revoked and expired tokens give null. Records last use (at most once a minute). */
  async principalForToken(tokenHash: string): Promise<Principal | null> {
    const r = await this.pool.query(
      `SELECT t.id, t.name, t.organization_id, t.is_platform_admin, t.scopes, t.user_id, t.last_used_at,
              u.role AS user_role, u.is_admin AS user_is_admin
         FROM api_tokens t LEFT JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
      [tokenHash],
    );
    const row = r.rows[0];
    if (!row) return null;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
      await this.pool.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
    }
    const scopes = effectiveScopes(row.scopes, (row.user_role ?? 'admin') as Role);
    return {
      organizationId: row.organization_id,
      isPlatformAdmin: scopes.includes('admin') && (row.is_platform_admin || row.user_is_admin === true),
      userId: row.user_id ?? undefined,
      tokenId: row.id,
      scopes,
      actor: { type: 'token', id: row.id, name: row.name },
    };
  }

  async createSession(s: { idHash: string; userId: string; csrfToken: string; ttlSeconds: number }): Promise<void> {
    await this.pool.query(
      `INSERT INTO sessions (id_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [s.idHash, s.userId, s.csrfToken, s.ttlSeconds],
    );
  }

  async sessionPrincipal(idHash: string): Promise<{ principal: Principal; user: User; organization: Organization } | null> {
    const r = await this.pool.query(
      `SELECT s.csrf_token, u.*, o.name AS org_name, o.created_at AS org_created_at
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN organizations o ON o.id = u.organization_id
        WHERE s.id_hash = $1 AND s.expires_at > now()`,
      [idHash],
    );
    const row = r.rows[0];
    if (!row) return null;
    const user = toUser(row);
    return {
      principal: {
        organizationId: user.organizationId, isPlatformAdmin: user.isAdmin, userId: user.id, csrfToken: row.csrf_token,
        scopes: [...ROLE_SCOPES[user.role]], actor: { type: 'user', id: user.id, name: user.email },
      },
      user,
      organization: { id: user.organizationId, name: row.org_name, createdAt: iso(row.org_created_at) },
    };
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
  }

  async createJoinToken(tokenHash: string, ttlSeconds: number): Promise<Date> {
    const r = await this.pool.query(
      `INSERT INTO join_tokens (token_hash, expires_at) VALUES ($1, now() + make_interval(secs => $2)) RETURNING expires_at`,
      [tokenHash, ttlSeconds],
    );
    return r.rows[0].expires_at;
  }

  /** Marks a join token used; false when unknown, used or expired. */
  async consumeJoinToken(tokenHash: string, db: Db = this.pool): Promise<boolean> {
    const r = await db.query(
      'UPDATE join_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
      [tokenHash],
    );
    return r.rowCount === 1;
  }
}
