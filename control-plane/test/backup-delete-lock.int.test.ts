/**
 * A backup's delete and a restore being recorded never cross, against a real
 * PostgreSQL: a restore recorded while the backup's removal runs waits for it
 * and is then refused (nothing recorded), and a removal that starts while a
 * restore's transaction is open waits for its commit, so that the restore's
 * running create operation is seen (and the delete refused as
 * `backup_in_use` by the service). The API path is in backups.int.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPostgres } from './helpers/migrated-postgres';
import { inTransaction } from '../src/db/tx';
import { BackupStore } from '../src/backups/backup.store';
import { ClusterStore } from '../src/stores/cluster.store';
import { OperationStore } from '../src/stores/operation.store';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-backup-delete-lock-'));
let stopPg: (() => Promise<void>) | undefined;
let pool: pg.Pool;
const org = randomUUID();

beforeAll(async () => {
  ({ pool, stop: stopPg } = await migratedPostgres(dir));
  await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'o')`, [org]);
});
afterAll(async () => {
  await stopPg?.();
  rmSync(dir, { recursive: true, force: true });
});

async function backup(store: BackupStore): Promise<string> {
  const id = randomUUID();
  await store.insertUpload({ id, organizationId: org, clusterName: 'b', storage: { kind: 'local', root: dir }, shards: [{ shard: 0, key: `${id}/shard-0.rdb` }] });
  return id;
}

/** A cluster being restored: its row and its create operation, in `db`'s transaction. */
async function restoredCluster(db: pg.PoolClient): Promise<string> {
  const id = randomUUID();
  await new ClusterStore(pool).insert({
    id, organizationId: org, name: `c-${id.slice(0, 8)}`, status: { phase: 'provisioning', conditions: [] }, secretsEnc: 'x',
    spec: { shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, durability: 'none', evictionPolicy: 'noeviction', fencing: 'off', migrationPriority: 'balanced', engineVersion: '7', maintenanceWindow: null, tls: 'off', tlsClientAuth: 'none' },
  }, db);
  await new OperationStore(pool).create({ clusterId: id, organizationId: org, kind: 'create-cluster', steps: [] }, db);
  return id;
}

describe('a backup\'s delete and a restore of it', () => {
  it('a restore recorded during the removal waits for it and is refused; nothing is recorded', async () => {
    const store = new BackupStore(pool);
    const id = await backup(store);
    let finish!: () => void;
    const removing = new Promise<void>((r) => { finish = r; });
    const removal = store.whileLocked(id, async () => {
      await removing;
      await store.delete(id);
    });
    await new Promise((r) => setTimeout(r, 100));
    let recorded = false;
    const restore = inTransaction(pool, async (db) => {
      const clusterId = await restoredCluster(db);
      await store.insertRestore(clusterId, id, [], 'seed', db);
      recorded = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    const recordedDuringRemoval = recorded;
    finish();
    await removal;
    expect(recordedDuringRemoval, 'the restore was recorded while the backup was being removed').toBe(false);
    await expect(restore).rejects.toMatchObject({ code: 'validation_failed', errors: [{ field: 'restoreFrom.backupId' }] });
    expect((await pool.query('SELECT count(*)::int AS n FROM cluster_restores WHERE backup_id = $1', [id])).rows[0].n).toBe(0);
  });

  it('a removal that starts while a restore is being recorded waits for its commit and then sees the restore reading the backup', async () => {
    const store = new BackupStore(pool);
    const id = await backup(store);
    let commit!: () => void;
    const committing = new Promise<void>((r) => { commit = r; });
    let inside!: () => void;
    const entered = new Promise<void>((r) => { inside = r; });
    const restore = inTransaction(pool, async (db) => {
      const clusterId = await restoredCluster(db);
      await store.insertRestore(clusterId, id, [], 'seed', db);
      inside();
      await committing;
      return clusterId;
    });
    await entered;
    let readers: Awaited<ReturnType<BackupStore['restoresReading']>> | undefined;
    const removal = store.whileLocked(id, async () => { readers = await store.restoresReading(id); });
    await new Promise((r) => setTimeout(r, 300));
    const readersDuringRestore = readers;
    commit();
    const clusterId = await restore;
    await removal;
    expect(readersDuringRestore, 'the removal ran while the restore was being recorded').toBeUndefined();
    expect(readers).toEqual([expect.objectContaining({ clusterId })]);
  });
});
