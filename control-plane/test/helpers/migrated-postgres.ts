import path from 'node:path';
import pg from 'pg';
import { startPostgres } from '@strata/local';
import { migrate } from '../../src/db/migrate';

/**
 * A PostgreSQL of a test's own (under `dir`, from the template cache) with every migration applied, and a pool to
 * it; `stop` ends the pool and the server. Idle clients see the server stop at teardown: their errors are ignored.
 */
export async function migratedPostgres(dir: string, poolOptions: pg.PoolConfig = {}): Promise<{ pool: pg.Pool; stop: () => Promise<void> }> {
  const handle = await startPostgres({ dataDir: path.join(dir, 'pg'), logFile: path.join(dir, 'pg.log'), fast: true });
  const pool = new pg.Pool({ connectionString: handle.url, ...poolOptions });
  pool.on('error', () => {});
  const stop = async () => {
    await pool.end();
    await handle.stop();
  };
  try {
    await migrate(pool);
  } catch (err) {
    await stop();
    throw err;
  }
  return { pool, stop };
}
