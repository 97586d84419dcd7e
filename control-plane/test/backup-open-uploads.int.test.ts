/**
 * Unfinished multipart uploads against a real S3-compatible server
 * (SeaweedFS) and a real PostgreSQL: writers streaming backup files into the
 * bucket (S3Storage.put, as the control plane receiving an upload and the
 * agents do) are killed -9 mid-upload in child processes, leaving their
 * uploads open. The backup coordinator's passes then fail the interrupted
 * upload's backup with its reason and abort every upload no running backup
 * owns (the interrupted one's, one under a backup that had already failed
 * and been swept, one under a backup whose record is gone), keep a running
 * backup's, and leave keys that are not under a backup id alone. No
 * control plane or agent runs: the coordinator is driven directly.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageRef } from '@strata/api';
import { S3Storage } from '@strata/engine/backup';
import { loopbackAddress, startSeaweedFs, type SeaweedFs } from '@strata/local';
import { migratedPostgres } from './helpers/migrated-postgres';
import { SecretBox } from '../src/crypto/secret-box';
import { BackupStore } from '../src/backups/backup.store';
import { BackupStorageStore } from '../src/backups/backup-storage.store';
import { BackupCoordinator } from '../src/backups/backup-coordinator';
import { ClusterStore } from '../src/stores/cluster.store';
import { NodeStore } from '../src/stores/node.store';
import { TaskStore } from '../src/stores/task.store';
import { ObservedState } from '../src/observed/observed-state';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-open-uploads-'));
const repoRoot = path.resolve(__dirname, '../..');
let stopPg: (() => Promise<void>) | undefined;
let pool: pg.Pool;
let s3: SeaweedFs;
let bucket: S3Storage;
let ref: Extract<StorageRef, { kind: 's3' }>;
const org = randomUUID();
const children: ChildProcess[] = [];

beforeAll(async () => {
  ({ pool, stop: stopPg } = await migratedPostgres(dir));
  s3 = await startSeaweedFs({ dir: path.join(dir, 'seaweedfs'), address: loopbackAddress('127.0.140.250') });
  ref = { kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, prefix: 'strata/', credentialsId: randomUUID() };
  bucket = new S3Storage(ref, s3);
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  bucket?.destroy();
  await s3?.stop();
  await stopPg?.();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A writer in a child process streaming `key` into the bucket (6 MB, more than one 5 MB part, then nothing more),
 * killed -9 once its multipart upload is open and its first part stored.
 */
async function killedMidUpload(key: string): Promise<void> {
  const script = `
    import { S3Storage } from '@strata/engine/backup';
    import { Readable } from 'node:stream';
    const storage = new S3Storage(JSON.parse(process.env.REF), JSON.parse(process.env.CREDS));
    async function* body() { yield Buffer.alloc(6 * 1024 * 1024, 1); await new Promise(() => {}); }
    await storage.put(process.env.KEY, Readable.from(body()));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_NO_WARNINGS: '1', REF: JSON.stringify(ref), CREDS: JSON.stringify({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }), KEY: key },
  });
  children.push(child);
  const exited = new Promise((r) => child.once('exit', r));
  const deadline = Date.now() + 30_000;
  // Open with its first part stored: the writer is mid-upload.
  while (!(await partStored(key))) {
    if (child.exitCode !== null) throw new Error(`the writer of ${key} exited (${child.exitCode}) before its upload opened`);
    if (Date.now() > deadline) throw new Error(`the writer of ${key} opened no upload`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  await exited;
}

async function partStored(key: string): Promise<boolean> {
  const u = (await bucket.unfinishedUploads()).find((x) => x.key === key);
  if (!u) return false;
  const { ListPartsCommand, S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  try {
    const parts = await client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: `${ref.prefix}${key}`, UploadId: u.uploadId }));
    return (parts.Parts ?? []).length > 0;
  } finally {
    client.destroy();
  }
}

describe('unfinished multipart uploads', () => {
  it('a writer killed mid-upload: its backup fails with the reason, and every upload no running backup owns is aborted', async () => {
    const box = new SecretBox(randomBytes(32));
    const store = new BackupStore(pool);
    const storage = new BackupStorageStore({ pool, box, local: { kind: 'local', root: path.join(dir, 'local') } });
    await storage.save(org, ref, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });

    // The control plane receiving an upload killed -9 mid-file: its backup row stays running, untouched since.
    const interrupted = randomUUID();
    await store.insertUpload({ id: interrupted, organizationId: org, clusterName: 'uploaded', storage: ref, shards: [{ shard: 0, key: `${interrupted}/shard-0.rdb` }] });
    await killedMidUpload(`${interrupted}/shard-0.rdb`);
    // A backup that failed and was swept, whose stalled writer opened its upload after the sweep, then died.
    const swept = randomUUID();
    await store.insertUpload({ id: swept, organizationId: org, clusterName: 'swept', storage: ref, shards: [{ shard: 0, key: `${swept}/shard-0.rdb` }] });
    await store.finish(swept, { status: 'failed', error: { code: 'storage_failed', message: 'x' } });
    await store.markFilesRemoved(swept);
    await killedMidUpload(`${swept}/shard-0.rdb`);
    // A backup whose record is gone, and one running now (its writer still streaming: it is kept).
    await killedMidUpload(`${randomUUID()}/shard-1.rdb`);
    const running = randomUUID();
    await store.insertUpload({ id: running, organizationId: org, clusterName: 'running', storage: ref, shards: [{ shard: 0, key: `${running}/shard-0.rdb` }] });
    await store.touchUpload(running);
    await killedMidUpload(`${running}/shard-0.rdb`);
    // Not under a backup id: not Strata's.
    await killedMidUpload('elsewhere/file.bin');
    expect((await bucket.unfinishedUploads())).toHaveLength(5);

    const coordinator = new BackupCoordinator({
      store, storage, clusters: new ClusterStore(pool), nodes: new NodeStore(pool), tasks: new TaskStore(pool), observed: new ObservedState(Date.now, 10_000),
      notifyNode: () => {}, log: pino({ level: 'silent' }), uploadStaleMs: 10_000,
    });
    await pool.query(`UPDATE backups SET upload_alive_at = now() - interval '1 minute' WHERE id = $1`, [interrupted]);
    // What runs when a control plane starts: a coordinator pass and the upload sweep.
    await coordinator.tick();
    await coordinator.sweepOpenUploads();

    expect(await store.get(interrupted)).toMatchObject({
      status: 'failed', filesRemoved: true,
      error: { code: 'upload_interrupted', message: expect.stringMatching(/control plane receiving the file stopped .* before the whole file arrived/) },
    });
    expect((await store.get(running))?.status).toBe('running');
    expect((await bucket.unfinishedUploads()).map((u) => u.key).sort()).toEqual([`${running}/shard-0.rdb`, 'elsewhere/file.bin'].sort());

    // Once the running backup has ended, the next sweep aborts its upload too; the stranger's stays.
    await store.finish(running, { status: 'failed', error: { code: 'upload_failed', message: 'x' } });
    await store.markFilesRemoved(running);
    expect(await coordinator.sweepOpenUploads()).toEqual([`${running}/shard-0.rdb`]);
    expect((await bucket.unfinishedUploads()).map((u) => u.key)).toEqual(['elsewhere/file.bin']);
  }, 120_000);
});
