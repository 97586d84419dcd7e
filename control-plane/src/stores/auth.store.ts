import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Organization, User } from '@strata/api';
import type { Db } from '../db/tx';

export interface Principal {
  organizationId: string;
  isPlatformAdmin: boolean;
  userId?: string;
  /** Set for cookie sessions: changes must carry this CSRF token. */
  csrfToken?: string;
}

const iso = (d: Date) => d.toISOString();
const toOrg = (r: any): Organization => ({ id: r.id, name: r.name, createdAt: iso(r.created_at) });
const toUser = (r: any): User => ({ id: r.id, email: r.email, organizationId: r.organization_id, isAdmin: r.is_admin, createdAt: iso(r.created_at) });

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

  async createUser(u: { organizationId: string; email: string; passwordHash: string; isAdmin: boolean }, db: Db = this.pool): Promise<User> {
    const r = await db.query(
      'INSERT INTO users (id, organization_id, email, password_hash, is_admin) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [randomUUID(), u.organizationId, u.email.toLowerCase(), u.passwordHash, u.isAdmin],
    );
    return toUser(r.rows[0]);
  }

  async findUserByEmail(email: string): Promise<(User & { passwordHash: string }) | null> {
    const r = await this.pool.query('SELECT * FROM users WHERE email = $1', [email.toLowerCase()]);
    return r.rows[0] ? { ...toUser(r.rows[0]), passwordHash: r.rows[0].password_hash } : null;
  }

  async setUserPassword(userId: string, passwordHash: string): Promise<void> {
    await this.pool.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  async createApiToken(t: { organizationId: string; name: string; tokenHash: string; isPlatformAdmin: boolean }, db: Db = this.pool) {
    const r = await db.query(
      'INSERT INTO api_tokens (id, organization_id, name, token_hash, is_platform_admin) VALUES ($1, $2, $3, $4, $5) RETURNING id, name, created_at',
      [randomUUID(), t.organizationId, t.name, t.tokenHash, t.isPlatformAdmin],
    );
    return { id: r.rows[0].id as string, name: r.rows[0].name as string, createdAt: iso(r.rows[0].created_at) };
  }

  async principalForToken(tokenHash: string): Promise<Principal | null> {
    const r = await this.pool.query('SELECT organization_id, is_platform_admin FROM api_tokens WHERE token_hash = $1', [tokenHash]);
    const row = r.rows[0];
    return row ? { organizationId: row.organization_id, isPlatformAdmin: row.is_platform_admin } : null;
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
      principal: { organizationId: user.organizationId, isPlatformAdmin: user.isAdmin, userId: user.id, csrfToken: row.csrf_token },
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
