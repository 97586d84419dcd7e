/**
 * Backups to S3-compatible storage, on the real stack (PostgreSQL, agents,
 * redis-server) and a real object store (SeaweedFS's S3 gateway with its
 * own data directory): the storage is configured per organization and
 * checked first (credentials never shown again, sealed at rest); a 3x1
 * cluster with keys of every type, TTLs and incompressible 1 MB values is
 * backed up under a writer, consistently (one point in time: the write pause
 * is in the manifest; the restore holds a prefix of a sequential writer's
 * keys), and restored key by key. The failure paths: an agent killed
 * mid-upload (the backup still completes, nothing left behind), a primary
 * killed mid-backup (complete, or failed with a reason, never short), a
 * flipped byte in the stored object (restore refuses, naming the file),
 * the storage down and the credentials refused (the backup fails with the
 * reason, no manifest, no unfinished multipart upload, the cluster keeps
 * serving), cancel and delete. Then schedules and retention (by count, by
 * age, of a deleted cluster's backups too). The consistent backup is also
 * restored into another shape (2x2: keys moved by slot from temporary
 * engines, each file read from the bucket), key by key.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster as RedisCluster } from 'ioredis';
import type { Backup, BackupList, BackupResponse, BackupScheduleResponse, BackupStorage, Problem } from '@strata/api';
import { S3Storage } from '@strata/engine/backup';
import { loopbackAddress, startSeaweedFs, type SeaweedFs, type Stack } from '@strata/local';
import { killHost, redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { expectSameKeys } from './helpers/key-compare';
import { appClient, DurableWriter } from './helpers/workload';
import { phaseClock } from './helpers/phase-clock';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let s3: SeaweedFs;
let db: pg.Client;
let bucket: S3Storage;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.48', {
    nodes: 3,
    // Uploads at 4 MB/s: long enough to kill an agent or cancel mid-upload; the scheduler looks twice a second.
    agentEnv: { STRATA_AGENT_BACKUP_MAX_MBPS: '4' },
    extraEnv: { STRATA_BACKUP_SCHEDULER_INTERVAL_MS: '500' },
  }));
  s3 = await startSeaweedFs({ dir: path.join(stack.dir, 'seaweedfs'), address: loopbackAddress('127.0.48.250') });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  bucket = new S3Storage({ kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, prefix: 'org/', credentialsId: '00000000-0000-4000-8000-000000000000' }, s3);
}, 120_000);
afterAll(async () => {
  bucket?.destroy();
  await db?.end();
  await s3?.stop();
  await cleanup?.();
});

const SMALL = 40;
const BIG = 30;
const MB = 1024 * 1024;

async function load(c: RedisCluster): Promise<string[]> {
  const keys: string[] = [];
  const ops: Promise<unknown>[] = [];
  for (let i = 0; i < SMALL; i++) {
    ops.push(c.set(`str:${i}`, `v${i}`), c.hset(`hash:${i}`, { a: `${i}`, b: 'x' }), c.rpush(`list:${i}`, 'a', `${i}`), c.sadd(`set:${i}`, 'm1', `m${i}`),
      c.zadd(`zset:${i}`, 1, 'one', i, `s${i}`), c.xadd(`stream:${i}`, '*', 'f', `${i}`));
    keys.push(`str:${i}`, `hash:${i}`, `list:${i}`, `set:${i}`, `zset:${i}`, `stream:${i}`);
    if (i % 4 === 0) for (const k of keys.slice(-6)) ops.push(c.expire(k, 900));
  }
  // Incompressible: ~10 MB per shard, so an upload at 4 MB/s takes seconds.
  for (let i = 0; i < BIG; i++) {
    ops.push(c.set(`big:${i}`, randomBytes(MB).toString('base64').slice(0, MB)));
    keys.push(`big:${i}`);
  }
  await Promise.all(ops);
  for (const node of c.nodes('master')) expect(Number(await node.call('WAIT', '1', '5000'))).toBe(1);
  return keys;
}

const backupOf = async (id: string) => (await api.call<BackupResponse>('GET', `/v1/backups/${id}`)).body.backup;
const startBackup = async (clusterId: string, body: object = {}) => {
  const r = await api.call<BackupResponse>('POST', `/v1/clusters/${clusterId}/backups`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.backup;
};
const waitEnded = (id: string, timeoutMs = 90_000): Promise<Backup> => api.pollUntil(async () => {
  const b = await backupOf(id);
  return b.status === 'running' ? undefined : b;
}, timeoutMs, () => `backup ${id} still running`);
const waitCompleted = async (id: string) => {
  const b = await waitEnded(id);
  expect(b.error, `backup ${id}`).toBeNull();
  expect(b.status).toBe('completed');
  return b;
};
/** Files the agents keep while a shard's snapshot streams: none may stay behind. */
const leftoverSnapshots = () => stack.agents.flatMap((a) => {
  const inst = path.join(a.dir, 'instances');
  let dirs: string[] = [];
  try { dirs = readdirSync(inst); } catch { return []; }
  return dirs.flatMap((d) => readdirSync(path.join(inst, d)).filter((f) => f.startsWith('backup-')).map((f) => `${a.name}/${d}/${f}`));
});
const objectsOf = async (backupId: string) => (await bucket.list(`${backupId}/`)).sort();

describe('backups to S3-compatible storage', () => {
  let srcId: string;
  let src: RedisCluster;
  let keys: string[];

  it('checks the storage before using it, keeps the secret write-only and sealed', async () => {
    expect((await api.call<BackupStorage>('GET', '/v1/backup-storage')).body).toMatchObject({ kind: 'local', bucket: null });
    const good = { kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', prefix: 'org/', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
    const put = (over: object) => api.call<Problem & BackupStorage>('PUT', '/v1/backup-storage', { ...good, ...over });
    const badSecret = await put({ secretAccessKey: 'not-the-secret' });
    expect(badSecret.status).toBe(422);
    expect(badSecret.body).toMatchObject({ code: 'storage_invalid', errors: [{ field: 'accessKeyId', message: expect.stringMatching(/credentials were refused/) }] });
    const noBucket = await put({ bucket: 'no-such-bucket' });
    expect(noBucket.body).toMatchObject({ code: 'storage_invalid', errors: [{ field: 'bucket' }] });
    const down = await put({ endpoint: `http://${loopbackAddress('127.0.48.251')}:1` });
    expect(down.body).toMatchObject({ code: 'storage_invalid', errors: [{ field: 'endpoint', message: expect.stringMatching(/unreachable/) }] });
    const nonsense = await put({ bucket: 'Not_A_Bucket', prefix: '/abs' });
    expect(nonsense.status).toBe(400);
    expect(nonsense.body.errors!.map((e) => e.field).sort()).toEqual(['bucket', 'prefix']);
    expect((await api.call<BackupStorage>('GET', '/v1/backup-storage')).body.kind).toBe('local');

    const ok = await put({});
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'org/', accessKeyId: `…${s3.accessKeyId.slice(-4)}` });
    expect(JSON.stringify((await api.call('GET', '/v1/backup-storage')).body)).not.toContain(s3.secretAccessKey);
    const sealed = await db.query('SELECT sealed FROM backup_storage_credentials');
    expect(sealed.rows).toHaveLength(1);
    expect(sealed.rows[0].sealed).toMatch(/^v1\./);
    expect(sealed.rows[0].sealed).not.toContain(s3.secretAccessKey);
  });

  it('takes a consistent backup under a writer into the bucket and restores every key, type, value and TTL', async () => {
    const created = await api.createCluster({ name: 's3-source', shards: 3, replicasPerShard: 1, memoryMbPerShard: 128 });
    srcId = created.body.cluster.id;
    await api.waitForHealthy(srcId);
    src = appClient((await api.connection(srcId)).body.uri);
    keys = await load(src);

    const writer = new DurableWriter(appClient((await api.connection(srcId)).body.uri), 'w', 1).start();
    await new Promise((r) => setTimeout(r, 300));
    const ackedBefore = [...writer.acked];
    const started = await startBackup(srcId, { consistent: true });
    expect(started).toMatchObject({ status: 'running', consistent: true, storage: 's3', trigger: 'manual', clusterDeleted: false });
    const backup = await waitCompleted(started.id);
    await writer.stop();
    writer['client'].disconnect();
    expect(writer.errors).toBe(0);
    const m = backup.manifest!;
    expect(m.consistent).toBe(true);
    // One point in time: every shard's snapshot started during the same pause.
    expect(m.skewMs).toBe(0);
    expect(m.writePauseMs).toBeGreaterThan(0);
    expect(m.writePauseMs).toBeLessThan(1000);
    expect(m.shards.map((s) => s.source.role)).toEqual(['replica', 'replica', 'replica']);
    expect(await objectsOf(backup.id)).toEqual([`${backup.id}/manifest.json`, ...m.shards.map((s) => s.file)].sort());
    expect(await bucket.openUploads()).toEqual([]);
    expect(leftoverSnapshots()).toEqual([]);
    console.log(`consistent backup: write pause ${m.writePauseMs} ms, ${m.shards.reduce((n, s) => n + s.bytes, 0)} bytes`);

    // A flipped byte in the stored object: refused before anything is created, naming the file.
    const victim = m.shards[2]!;
    const chunks: Buffer[] = [];
    for await (const c of bucket.get(victim.file)) chunks.push(c as Buffer);
    const original = Buffer.concat(chunks);
    const flipped = Buffer.from(original);
    flipped[Math.floor(flipped.length / 3)]! ^= 0x01;
    await bucket.put(victim.file, Readable.from([flipped]));
    const restore = (over: object = {}) => api.createCluster({ name: 's3-restored', shards: 3, replicasPerShard: 1, memoryMbPerShard: 128, restoreFrom: { backupId: backup.id }, ...over });
    const refused = await restore();
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'backup_corrupted', errors: [{ field: 'restoreFrom.backupId', message: expect.stringContaining(victim.file) }] });
    expect(refused.body.detail).toContain(victim.sha256);
    expect((await api.listClusters()).body.items.map((c) => c.name)).toEqual(['s3-source']);
    await bucket.put(victim.file, Readable.from([original]));

    // The same file uploaded: the control plane streams it into the bucket; a cut copy is refused and leaves no object or open upload.
    const upload = (body: Buffer) => fetch(`${stack.url}/v1/backups/upload?name=s3-upload`, {
      method: 'POST', headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/octet-stream' }, body,
    });
    const objectsBefore = await bucket.list('');
    const cut = await upload(original.subarray(0, original.length - 9));
    expect(cut.status).toBe(422);
    expect(((await cut.json()) as Problem).code).toBe('backup_corrupted');
    const up = await upload(original);
    expect(up.status).toBe(201);
    const uploaded = ((await up.json()) as BackupResponse).backup;
    expect(uploaded).toMatchObject({ status: 'completed', storage: 's3', trigger: 'upload' });
    expect(uploaded.manifest!.shards[0]).toMatchObject({ bytes: original.length, sha256: victim.sha256, keys: victim.keys });
    expect((await bucket.list('')).sort()).toEqual([...objectsBefore, `${uploaded.id}/manifest.json`, `${uploaded.id}/shard-0.rdb`].sort());
    expect(await bucket.openUploads()).toEqual([]);

    const restored = await restore();
    expect(restored.status).toBe(202);
    const newId = restored.body.cluster.id;
    await api.waitForHealthy(newId, 120_000);
    const dst = appClient((await api.connection(newId)).body.uri);
    try {
      await expectSameKeys(src, dst, keys);
      for (const key of ackedBefore) expect(await dst.get(key), key).toBe(await src.get(key));
      // One point in time: the writer wrote w:0, w:1, ... one after the other, spread over every shard, so a
      // consistent cut holds exactly a prefix of them (a gap would be a shard cut later than another).
      const present: number[] = [];
      for (let i = 0; i < writer.acked.length; i++) if ((await dst.exists(`w:${i}`)) === 1) present.push(i);
      expect(present.length).toBeGreaterThanOrEqual(ackedBefore.length);
      expect(present.length).toBeLessThan(writer.acked.length); // the writer went on after the cut
      expect(present).toEqual(present.map((_, i) => i));
      console.log(`consistent cut: w:0..w:${present.length - 1} of ${writer.acked.length} acknowledged writes`);
    } finally {
      dst.disconnect();
    }
    await api.deleteCluster(newId);

    // Into another shape (2x2): each file read from the bucket into a temporary engine, its keys moved by slot.
    const reshaped = await restore({ name: 's3-restored-2x2', shards: 2, replicasPerShard: 2 });
    expect(reshaped.status, JSON.stringify(reshaped.body)).toBe(202);
    await api.waitForHealthy(reshaped.body.cluster.id, 120_000);
    const dst2 = appClient((await api.connection(reshaped.body.cluster.id)).body.uri);
    try {
      await expectSameKeys(src, dst2, [...keys, ...ackedBefore]);
      expect(dst2.nodes('master')).toHaveLength(2);
      // Both replicas of each shard hold what was moved in.
      for (const node of dst2.nodes('master')) expect(Number(await node.call('WAIT', '2', '5000'))).toBe(2);
    } finally {
      dst2.disconnect();
    }
    await api.deleteCluster(reshaped.body.cluster.id);
  }, 300_000);

  it('completes a backup whose agent is killed -9 mid-upload, leaving no file or upload behind', async () => {
    const b = await startBackup(srcId);
    // Wait until a shard is part-way through its upload, then kill that shard's agent.
    const shard = await api.pollUntil(async () => {
      const v = await backupOf(b.id);
      return v.shards.find((s) => s.state === 'running' && (s.bytes ?? 0) > 0);
    }, 30_000, () => 'no shard was seen mid-upload');
    const agent = stack.agents.find((a) => shard.source!.startsWith(`${a.address}:`))!;
    agent.proc!.child.kill('SIGKILL');
    const done = await waitCompleted(b.id);
    expect(done.manifest!.shards).toHaveLength(3);
    expect(await objectsOf(b.id)).toHaveLength(4);
    expect(await bucket.openUploads()).toEqual([]);
    await api.pollUntil(async () => (leftoverSnapshots().length === 0 ? true : undefined), 15_000, () => `left behind: ${leftoverSnapshots().join(', ')}`);
  }, 180_000);

  it('a primary killed during a backup: the backup completes from the shard\'s copies or fails with a reason, never short', async () => {
    const topo = await api.waitForHealthy(srcId);
    const primary = topo.shards[0]!.instances.find((i) => i.role === 'primary')!;
    // Each shard's key count in the last completed backup: keys are only added since, so a complete backup holds at least these.
    const last = (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items.find((x) => x.status === 'completed')!;
    const before = new Map(last.manifest!.shards.map((x) => [x.shard, x.keys]));
    const b = await startBackup(srcId);
    await api.pollUntil(async () => ((await backupOf(b.id)).shards.some((x) => (x.bytes ?? 0) > 0) ? true : undefined), 30_000, () => 'no upload started', { steady: true });
    const [pid] = redisPidsOn([primary.address.split(':')[0]!]).filter((p) => readlinkSync(`/proc/${p}/cwd`).endsWith(primary.id));
    expect(pid, 'the primary\'s process').toBeTruthy();
    process.kill(pid!, 'SIGKILL');
    const ended = await waitEnded(b.id, 120_000);
    if (ended.status === 'completed') {
      for (const sh of ended.manifest!.shards) expect(sh.keys, `shard ${sh.shard}`).toBeGreaterThanOrEqual(before.get(sh.shard)!);
    } else {
      expect(ended.manifest).toBeNull();
      expect(ended.error!.message.length).toBeGreaterThan(0);
    }
    console.log(`primary killed during a backup: ${ended.status}${ended.error ? ` (${ended.error.code}: ${ended.error.message})` : ''}`);
    await api.waitForHealthy(srcId, 90_000);
    await api.pollUntil(async () => ((await bucket.openUploads()).length === 0 ? true : undefined), 20_000, () => 'an upload was left open');
  }, 180_000);

  it('fails cleanly when the storage is down or refuses the credentials: a reason, no manifest, no upload left, the cluster serving', async () => {
    const phase = phaseClock('storage down, then refusing');
    const restarts = stack.agents.map((a) => a.restarts);
    const writer = new DurableWriter(appClient((await api.connection(srcId)).body.uri), 'down', 1).start();
    await s3.stop();
    phase('storage stopped');
    const down = await waitEnded((await startBackup(srcId)).id);
    phase('backup failed');
    expect(down.status).toBe('failed');
    expect(down.manifest).toBeNull();
    expect(down.error).toMatchObject({ code: 'storage_failed', message: expect.stringMatching(/unreachable/) });
    await s3.restart();
    phase('storage restarted');
    // Its objects are swept once the storage answers again.
    await api.pollUntil(async () => ((await objectsOf(down.id)).length === 0 ? true : undefined), 20_000, () => 'objects of the failed backup remain');
    phase('objects swept');

    // The storage now wants another secret: the organization's credentials are refused.
    const config = path.join(stack.dir, 'seaweedfs', 's3.json');
    const withSecret = (secretKey: string) => JSON.stringify({ identities: [{ name: 'strata', credentials: [{ accessKey: s3.accessKeyId, secretKey }], actions: ['Admin', 'Read', 'Write', 'List'] }] });
    writeFileSync(config, withSecret('rotated-secret'));
    let refused: Backup;
    try {
      await s3.stop();
      await s3.restart();
      phase('storage restarted with another secret');
      refused = await waitEnded((await startBackup(srcId)).id);
      phase('backup refused');
      expect(refused.status).toBe('failed');
      expect(refused.error).toMatchObject({ code: 'storage_failed', message: expect.stringMatching(/credentials were refused/) });
      expect(refused.manifest).toBeNull();
      await writer.stop();
      // The cluster served throughout.
      expect(writer.errors, writer.firstErrors.join('\n')).toBe(0);
      expect(writer.acked.length).toBeGreaterThan(50);
      expect((await api.getCluster(srcId)).body.status.phase).toBe('ready');
      // No agent died of it.
      expect(stack.agents.map((a) => a.restarts)).toEqual(restarts);
    } finally {
      // Back to the right secret (the test's own view of the bucket and the next tests use it), whatever failed above.
      await writer.stop();
      writer['client'].disconnect();
      writeFileSync(config, withSecret(s3.secretAccessKey));
      await s3.stop();
      await s3.restart();
      phase('storage restarted with the right secret');
    }
    await api.pollUntil(async () => ((await objectsOf(refused.id)).length === 0 ? true : undefined), 20_000, () => 'objects of the refused backup remain');
    phase('objects swept');
    expect(await bucket.openUploads()).toEqual([]);
    expect(leftoverSnapshots()).toEqual([]);
  }, 180_000);

  it('cancels a running backup, refuses to delete one, deletes a finished one with its objects', async () => {
    const b = await startBackup(srcId);
    const del = await api.call<Problem>('DELETE', `/v1/backups/${b.id}`);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('backup_running');
    await api.pollUntil(async () => ((await backupOf(b.id)).shards.some((s) => (s.bytes ?? 0) > 0) ? true : undefined), 30_000, () => 'no upload started', { steady: true });
    const cancelled = await api.call<BackupResponse>('POST', `/v1/backups/${b.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.backup).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect((await api.call<Problem>('POST', `/v1/backups/${b.id}/cancel`)).status).toBe(409);
    await api.pollUntil(async () => ((await objectsOf(b.id)).length === 0 && (await bucket.openUploads()).length === 0 ? true : undefined), 20_000, () => 'the cancelled backup left objects');
    await api.pollUntil(async () => (leftoverSnapshots().length === 0 ? true : undefined), 15_000, () => `left behind: ${leftoverSnapshots().join(', ')}`);

    const list = (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items;
    const completed = list.find((x) => x.status === 'completed')!;
    expect((await api.call('DELETE', `/v1/backups/${completed.id}`)).status).toBe(204);
    expect((await api.call('GET', `/v1/backups/${completed.id}`)).status).toBe(404);
    expect(await objectsOf(completed.id)).toEqual([]);
    expect((await api.call<Problem>('DELETE', `/v1/backups/${completed.id}`)).status).toBe(404);
  }, 120_000);

  it('a node lost mid-upload (its host: agent and engines): the control plane takes the shard back from it once it is down, and the backup completes from a live copy', async () => {
    await api.waitForHealthy(srcId);
    const last = (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items.find((x) => x.status === 'completed')!;
    const before = new Map(last.manifest!.shards.map((x) => [x.shard, x.keys]));
    const b = await startBackup(srcId);
    const shard = await api.pollUntil(async () => (await backupOf(b.id)).shards.find((s) => s.state === 'running' && (s.bytes ?? 0) > 0), 30_000, () => 'no shard was seen mid-upload', { steady: true });
    const index = stack.agents.findIndex((a) => shard.source!.startsWith(`${a.address}:`));
    const lost = (await api.nodes()).body.items.find((n) => n.name === stack.agents[index]!.name)!;
    // An application writes through the loss (each write acknowledged once a replica has it).
    const uri = (await api.connection(srcId)).body.uri;
    const writer = new DurableWriter(appClient(uri), 'node-lost', 1).start();
    await killHost(stack, index);
    try {
      const done = await waitCompleted(b.id);
      expect(done.manifest!.shards).toHaveLength(3);
      const again = done.manifest!.shards.find((x) => x.shard === shard.shard)!;
      expect(again.source.address.startsWith(`${lost.address}:`), `shard ${shard.shard} taken from ${again.source.address}`).toBe(false);
      for (const sh of done.manifest!.shards) expect(sh.keys, `shard ${sh.shard}`).toBeGreaterThanOrEqual(before.get(sh.shard)!);
      expect(await objectsOf(b.id)).toHaveLength(4);
      // The API's node list says so too (its own clock of the node's silence may lag the backup's by a moment).
      await api.pollUntil(async () => ((await api.nodes()).body.items.find((n) => n.id === lost.id)!.status === 'down' ? true : undefined), 30_000, () => 'the lost node is not shown down');
      console.log(`node lost mid-upload of shard ${shard.shard} (${shard.source}): completed, that shard taken from ${again.source.address}`);
    } finally {
      await stack.startAgent(index);
    }
    await api.pollUntil(async () => ((await bucket.openUploads()).length === 0 ? true : undefined), 20_000, () => 'an upload was left open');
    // The cluster heals as after any node loss; the node back, it is whole on three nodes again.
    const healed = await api.waitForHealthy(srcId, 120_000);
    for (const sh of healed.shards) expect(new Set(sh.instances.map((i) => i.nodeId)).size, `shard ${sh.index}`).toBe(2);
    for (const until = Date.now() + 30_000; writer.acked.length <= 50 && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
    await writer.stop();
    expect(writer.acked.length).toBeGreaterThan(50);
    const reader = appClient(uri);
    expect(await writer.lost(reader)).toEqual([]);
    reader.disconnect();
    writer['client'].disconnect();
  }, 240_000);

  it('backs up on a schedule and applies retention, also to a deleted cluster\'s backups', async () => {
    const put = (body: object) => api.call<BackupScheduleResponse & Problem>('PUT', `/v1/clusters/${srcId}/backup-schedule`, body);
    expect((await put({ intervalHours: 1, keepDays: -1 })).body.errors).toEqual([expect.objectContaining({ field: 'keepDays' })]);
    expect((await put({ intervalHours: 1, dailyAt: '03:00' })).body.errors).toEqual([expect.objectContaining({ field: 'intervalHours' })]);
    expect((await put({ dailyAt: '25:00' })).body.errors).toEqual([expect.objectContaining({ field: 'dailyAt' })]);
    expect((await put({ intervalHours: 1, keepLast: 2, keepDays: 3 })).body.errors).toEqual([expect.objectContaining({ field: 'keepLast' })]);
    const set = await put({ intervalHours: 6, keepLast: 2 });
    expect(set.status).toBe(200);
    expect(set.body.schedule).toMatchObject({ intervalHours: 6, dailyAt: null, keepLast: 2, keepDays: null, consistent: false });
    expect(Math.abs(Date.parse(set.body.nextAt!) - (Date.now() + 6 * 3_600_000))).toBeLessThan(60_000);

    // Due now: the scheduler starts it (the clock is the database's; the schedule is moved instead of the clock).
    for (let i = 0; i < 2; i++) {
      await db.query('UPDATE backup_schedules SET next_at = now() WHERE cluster_id = $1', [srcId]);
      const scheduled = await api.pollUntil(async () => (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items
        .find((x) => x.trigger === 'schedule' && x.status === 'running'), 15_000, () => 'no scheduled backup started');
      await waitCompleted(scheduled.id);
    }
    const next = (await api.call<BackupScheduleResponse>('GET', `/v1/clusters/${srcId}/backup-schedule`)).body.nextAt!;
    expect(Date.parse(next)).toBeGreaterThan(Date.now() + 5 * 3_600_000);
    // keepLast 2: only the two newest completed backups remain.
    const completed = () => api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`).then((r) => r.body.items.filter((x) => x.status === 'completed'));
    await api.pollUntil(async () => ((await completed()).length === 2 ? true : undefined), 15_000, () => 'retention kept more than 2');
    const kept = await completed();
    expect(kept.every((x) => x.trigger === 'schedule')).toBe(true);

    // By age: backups older than keepDays go, whether or not their cluster still exists.
    expect((await put({ intervalHours: 6, keepDays: 5 })).status).toBe(200);
    expect((await completed()).every((x) => x.expiresAt !== null)).toBe(true);
    await db.query(`UPDATE backups SET created_at = now() - interval '4 days' WHERE id = $1`, [kept[0]!.id]);
    await db.query(`UPDATE backups SET created_at = now() - interval '6 days' WHERE id = $1`, [kept[1]!.id]);
    await put({ intervalHours: 6, keepDays: 5 });
    src.disconnect();
    await api.deleteCluster(srcId);
    await api.waitForGone(srcId);
    await api.pollUntil(async () => {
      const items = (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items;
      return items.some((x) => x.id === kept[1]!.id) ? undefined : items;
    }, 15_000, () => 'the expired backup of the deleted cluster is still there');
    const after = (await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`)).body.items;
    const survivor = after.find((x) => x.id === kept[0]!.id)!;
    expect(survivor).toMatchObject({ clusterDeleted: true, status: 'completed' });
    expect(Date.parse(survivor.expiresAt!)).toBeGreaterThan(Date.now());
    expect(await objectsOf(kept[1]!.id)).toEqual([]);
  }, 180_000);
});
