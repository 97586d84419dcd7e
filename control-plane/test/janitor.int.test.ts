import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { startPostgres } from '@strata/local';
import { migrate } from '../src/db/migrate';
import { Janitor } from '../src/services/janitor';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-janitor-'));
let stopPg: () => Promise<void>;
let pool: pg.Pool;

beforeAll(async () => {
  const handle = await startPostgres({ dataDir: path.join(dir, 'pg'), logFile: path.join(dir, 'pg.log'), fast: true });
  stopPg = handle.stop;
  pool = new pg.Pool({ connectionString: handle.url });
  // Every migration file applies once, in order; a second run applies none.
  const files = readdirSync(path.join(import.meta.dirname, '../src/db/migrations')).filter((f) => /^\d+_.*\.sql$/.test(f));
  expect(await migrate(pool)).toEqual(files.map((f) => Number.parseInt(f, 10)).sort((a, b) => a - b));
  expect(await migrate(pool)).toEqual([]);
});
afterAll(async () => {
  await pool?.end();
  await stopPg?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('Janitor (real PostgreSQL)', () => {
  it('removes old finished tasks and expired sessions, keeps open and recent ones', async () => {
    const node = randomUUID();
    await pool.query(`INSERT INTO nodes (id, name, address, memory_mb, credential_hash) VALUES ($1, 'n', '127.0.0.1', 64, 'h')`, [node]);
    const task = (state: string, age: string) => pool.query(
      `INSERT INTO tasks (id, node_id, cluster_id, kind, payload, dedupe_key, state, updated_at) VALUES ($1, $2, $3, 'k', '{}', $4, $5, now() - $6::interval)`,
      [randomUUID(), node, randomUUID(), randomUUID(), state, age],
    );
    await task('succeeded', '2 days');
    await task('failed', '2 days');
    await task('succeeded', '1 hour');
    await task('pending', '3 days');
    const org = randomUUID();
    const user = randomUUID();
    await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'o')`, [org]);
    await pool.query(`INSERT INTO users (id, organization_id, email, password_hash) VALUES ($1, $2, 'a@b.c', 'x')`, [user, org]);
    await pool.query(`INSERT INTO sessions (id_hash, user_id, csrf_token, expires_at) VALUES ('old', $1, 'c', now() - interval '1 minute'), ('live', $1, 'c', now() + interval '1 hour')`, [user]);

    const swept = await new Janitor({ pool, log: pino({ level: 'silent' }) }).sweep();
    expect(swept).toEqual({ tasks: 2, sessions: 1, joinTokens: 0 });
    expect((await pool.query('SELECT state FROM tasks ORDER BY state')).rows.map((r) => r.state)).toEqual(['pending', 'succeeded']);
    expect((await pool.query('SELECT id_hash FROM sessions')).rows.map((r) => r.id_hash)).toEqual(['live']);
  });
});
