/** Database users as stored (table database_users): password hashes only. */
import type pg from 'pg';
import type { DatabaseUserAcl, DatabaseUserPreset } from '@strata/api';
import type { Db } from '../db/tx';

export interface DatabaseUserRow {
  clusterId: string;
  name: string;
  preset: DatabaseUserPreset;
  keyPatterns: string[];
  channelPatterns: string[];
  passwordSha256: string;
  previousPasswordSha256: string | null;
  previousExpiresAt: Date | null;
  createdAt: Date;
  passwordRotatedAt: Date | null;
}

const toRow = (r: any): DatabaseUserRow => ({
  clusterId: r.cluster_id, name: r.name, preset: r.preset, keyPatterns: r.key_patterns, channelPatterns: r.channel_patterns,
  passwordSha256: r.password_sha256, previousPasswordSha256: r.previous_password_sha256, previousExpiresAt: r.previous_expires_at,
  createdAt: r.created_at, passwordRotatedAt: r.password_rotated_at,
});

/**
 * The users every instance must have at `now`: a previous password counts
 * until its grace period ends. The one place that decides which hashes open
 * a user.
 */
export function desiredAcls(rows: readonly DatabaseUserRow[], now = Date.now()): DatabaseUserAcl[] {
  return rows.map((r) => ({
    name: r.name, preset: r.preset, keyPatterns: r.keyPatterns, channelPatterns: r.channelPatterns,
    passwordHashes: [r.passwordSha256, ...(r.previousPasswordSha256 && r.previousExpiresAt && r.previousExpiresAt.getTime() > now ? [r.previousPasswordSha256] : [])],
  }));
}

/** The earliest grace period still running (a pass must come then to drop the old password), or null. */
export function nextExpiry(rows: readonly DatabaseUserRow[], now = Date.now()): number | null {
  const ends = rows.flatMap((r) => (r.previousPasswordSha256 && r.previousExpiresAt && r.previousExpiresAt.getTime() > now ? [r.previousExpiresAt.getTime()] : []));
  return ends.length ? Math.min(...ends) : null;
}

/** Every change bumps the cluster's users generation in the same statement. */
export class DatabaseUserStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(clusterId: string, db: Db = this.pool): Promise<DatabaseUserRow[]> {
    const r = await db.query('SELECT * FROM database_users WHERE cluster_id = $1 ORDER BY name', [clusterId]);
    return r.rows.map(toRow);
  }

  /** The users and the generation of their last change (0: never changed; null: no such cluster). */
  async desired(clusterId: string): Promise<{ generation: number; users: DatabaseUserRow[] } | null> {
    const r = await this.pool.query(
      `SELECT c.users_generation, u.* FROM clusters c LEFT JOIN database_users u ON u.cluster_id = c.id WHERE c.id = $1 ORDER BY u.name`, [clusterId],
    );
    if (!r.rows.length) return null;
    return { generation: Number(r.rows[0].users_generation), users: r.rows.filter((x) => x.name !== null).map(toRow) };
  }

  /** False when the cluster already has a user of this name. */
  async insert(u: Pick<DatabaseUserRow, 'clusterId' | 'name' | 'preset' | 'keyPatterns' | 'channelPatterns' | 'passwordSha256'>): Promise<DatabaseUserRow | null> {
    const r = await this.pool.query(
      `WITH bump AS (UPDATE clusters SET users_generation = users_generation + 1 WHERE id = $1)
       INSERT INTO database_users (cluster_id, name, preset, key_patterns, channel_patterns, password_sha256)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (cluster_id, name) DO NOTHING RETURNING *`,
      [u.clusterId, u.name, u.preset, u.keyPatterns, u.channelPatterns, u.passwordSha256],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /** The new hash becomes the password; the current one stays valid until `previousExpiresAt` (a grace of 0 drops it). Null: no such user. */
  async rotate(clusterId: string, name: string, passwordSha256: string, previousExpiresAt: Date): Promise<DatabaseUserRow | null> {
    const r = await this.pool.query(
      `WITH bump AS (UPDATE clusters SET users_generation = users_generation + 1 WHERE id = $1)
       UPDATE database_users SET previous_password_sha256 = password_sha256, previous_expires_at = $4, password_sha256 = $3, password_rotated_at = now()
       WHERE cluster_id = $1 AND name = $2 RETURNING *`,
      [clusterId, name, passwordSha256, previousExpiresAt],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async delete(clusterId: string, name: string): Promise<boolean> {
    const r = await this.pool.query(
      `WITH bump AS (UPDATE clusters SET users_generation = users_generation + 1 WHERE id = $1)
       DELETE FROM database_users WHERE cluster_id = $1 AND name = $2`, [clusterId, name],
    );
    return r.rowCount === 1;
  }
}
