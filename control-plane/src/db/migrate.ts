import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

const DIR = path.join(import.meta.dirname, 'migrations');

/** Applies `NNN_name.sql` files in order, each in its own transaction, once. */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  try {
    // One migrator at a time, even with several control planes starting together.
    await client.query('SELECT pg_advisory_lock(74617461)');
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r) => r.version as number));
    const applied: number[] = [];
    for (const file of readdirSync(DIR).filter((f) => /^\d+_.*\.sql$/.test(f)).sort()) {
      const version = Number.parseInt(file, 10);
      if (done.has(version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(readFileSync(path.join(DIR, file), 'utf8'));
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
        applied.push(version);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(74617461)').catch(() => {});
    client.release();
  }
}
