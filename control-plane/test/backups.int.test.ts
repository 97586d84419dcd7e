/**
 * Backups to the local directory and restores, on the real stack
 * (PostgreSQL, agents, redis-server): a 2x1 cluster with keys of every type
 * (some with TTLs, some over 1 MB) is backed up under a writer; each shard's
 * snapshot comes from its in-sync replica; the manifest describes every
 * file. A restore checks the backup first (unknown, not completed, too
 * little memory for the new shape, a flipped byte), then the new 2x1 (same
 * layout: files seed the primaries) holds every key written before the
 * backup started, with its type, value and TTL. A 3x1 cluster's backup is
 * restored into 5x0 (another layout: keys moved by slot from temporary
 * engines, paced by the agents so the move takes seconds); the agent moving
 * a file is killed -9 mid-move: its temporary engine and directory are gone
 * once it is back, the move runs again and the new cluster holds every key.
 * A new primary (no replica, no persistence) killed -9 after one file was
 * moved in full: it is restarted, every file is moved again, and the new
 * cluster holds every key.
 * An RDB file saved by a standalone redis-server is uploaded (streamed, its
 * CRC-64 checked; a truncated or damaged file, a newer RDB version and a file
 * over the limit refused) and restored into 2x0 key by key; a backup whose
 * file is of a newer RDB version is refused before a restore creates anything.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis, type Cluster as RedisCluster } from 'ioredis';
import type { Backup, BackupResponse, BackupList, Capacity, Operation, Problem } from '@strata/api';
import { loopbackAddress, type Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { expectSameKeys } from './helpers/key-compare';
import { appClient, DurableWriter, enginePid } from './helpers/workload';
import { settledPrimaries } from './helpers/redis-client';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // Restores into another layout move at most 400 keys a second per file: long enough to kill an agent mid-move.
  // Uploads above 8 MB are refused (the 413 is tested below).
  ({ stack, api, cleanup } = await testStack('127.0.46', {
    nodes: 2, agentEnv: { STRATA_AGENT_RESTORE_MAX_KEYS_PER_SEC: '400' }, extraEnv: { STRATA_BACKUP_UPLOAD_MAX_BYTES: String(8 * 1024 * 1024) },
  }));
});
afterAll(async () => cleanup?.());

const N = 60;
const BIG = 24;
const MB = 1024 * 1024;

/** Keys of every type, a third of them with a TTL, plus BIG strings of 1 MB (compressible: small files, much memory). */
async function load(c: RedisCluster): Promise<string[]> {
  const keys: string[] = [];
  const ops: Promise<unknown>[] = [];
  for (let i = 0; i < N; i++) {
    ops.push(c.set(`str:${i}`, `v${i}`), c.hset(`hash:${i}`, { a: `${i}`, b: 'x' }), c.rpush(`list:${i}`, 'a', `${i}`, 'c'), c.sadd(`set:${i}`, 'm1', `m${i}`),
      c.zadd(`zset:${i}`, 1, 'one', i, `s${i}`), c.xadd(`stream:${i}`, '*', 'f', `${i}`));
    keys.push(`str:${i}`, `hash:${i}`, `list:${i}`, `set:${i}`, `zset:${i}`, `stream:${i}`);
    if (i % 3 === 0) for (const k of keys.slice(-6)) ops.push(c.expire(k, 600));
  }
  for (let i = 0; i < BIG; i++) {
    ops.push(c.set(`big:${i}`, `${i}`.padEnd(MB + 10, 'x')));
    keys.push(`big:${i}`);
  }
  await Promise.all(ops);
  for (const node of c.nodes('master')) expect(Number(await node.call('WAIT', '1', '5000'))).toBe(1);
  return keys;
}

/** A few thousand keys of every type (a third with a TTL) and one value over 1 MB, on a 3-shard cluster. */
async function loadMany(c: RedisCluster): Promise<string[]> {
  const keys: string[] = [];
  const ops: Promise<unknown>[] = [];
  for (let i = 0; i < 400; i++) {
    ops.push(c.set(`s3:${i}`, `v${i}`), c.hset(`h3:${i}`, { a: `${i}`, b: 'x' }), c.rpush(`l3:${i}`, 'a', `${i}`), c.sadd(`t3:${i}`, 'm1', `m${i}`),
      c.zadd(`z3:${i}`, 1, 'one', i, `s${i}`), c.xadd(`x3:${i}`, '*', 'f', `${i}`));
    keys.push(`s3:${i}`, `h3:${i}`, `l3:${i}`, `t3:${i}`, `z3:${i}`, `x3:${i}`);
    if (i % 3 === 0) for (const k of keys.slice(-6)) ops.push(c.expire(k, 600));
  }
  ops.push(c.set('big3', 'y'.repeat(MB + 100)));
  keys.push('big3');
  await Promise.all(ops);
  for (const node of c.nodes('master')) expect(Number(await node.call('WAIT', '1', '5000'))).toBe(1);
  return keys;
}

/** Temporary restore engines working under `dir`, with the backup shard whose file each holds (its directory is <clusterId>-<shard>). */
function redisUnder(dir: string): { pid: number; shard: number }[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-x', 'redis-server'], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out.split('\n').filter(Boolean).map(Number).flatMap((pid) => {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return cwd.startsWith(dir) ? [{ pid, shard: Number(/-(\d+)(?: \(deleted\))?$/.exec(cwd)?.[1]) }] : [];
    } catch {
      return [];
    }
  });
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const backupOf = async (id: string) => (await api.call<BackupResponse>('GET', `/v1/backups/${id}`)).body.backup;

async function waitForBackup(id: string): Promise<Backup> {
  return api.pollUntil(async () => {
    const b = await backupOf(id);
    if (b.status === 'failed') throw new Error(`backup failed: ${JSON.stringify(b.error)}`);
    return b.status === 'completed' ? b : undefined;
  }, 60_000, () => `backup ${id} did not complete`);
}

describe('backups and restore', () => {
  it('backs a 2x1 cluster up from its replicas under a writer and restores every key, type, value and TTL into a new 2x1; refuses what cannot be restored', async () => {
    const created = await api.createCluster({ name: 'source', shards: 2, replicasPerShard: 1, memoryMbPerShard: 64 });
    const srcId = created.body.cluster.id;
    const topo = await api.waitForHealthy(srcId);
    const uri = (await api.connection(srcId)).body.uri;
    const src = appClient(uri);
    const keys = await load(src);

    // Input checks.
    expect((await api.call<Problem>('POST', `/v1/clusters/${srcId}/backups`, { consistent: 'yes' })).body.errors).toEqual([expect.objectContaining({ field: 'consistent' })]);
    expect((await api.call<Problem>('POST', `/v1/clusters/${srcId}/backups`, { retention: 3 })).status).toBe(400);

    const writer = new DurableWriter(appClient(uri), 'w', 1).start();
    await new Promise((r) => setTimeout(r, 300));
    const ackedBefore = [...writer.acked];
    const started = await api.call<BackupResponse>('POST', `/v1/clusters/${srcId}/backups`, {});
    expect(started.status).toBe(202);
    expect(started.body.backup).toMatchObject({ status: 'running', clusterId: srcId, consistent: false, storage: 'local', manifest: null });
    expect(started.headers.get('location')).toBe(`/v1/backups/${started.body.backup.id}`);
    const again = await api.call<Problem>('POST', `/v1/clusters/${srcId}/backups`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('backup_in_progress');

    const backup = await waitForBackup(started.body.backup.id);
    await writer.stop();
    writer['client'].disconnect();
    const m = backup.manifest!;
    expect(m.cluster).toMatchObject({ id: srcId, name: 'source', spec: { shards: 2, replicasPerShard: 1 } });
    expect(m.engineVersion).toMatch(/^7\./);
    expect(m.skewMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(m.finishedAt)).toBeGreaterThanOrEqual(Date.parse(m.startedAt));
    expect(m.shards.map((s) => s.shard)).toEqual([0, 1]);
    expect(backup.shards).toEqual(m.shards.map((s) => ({ shard: s.shard, state: 'completed', bytes: s.bytes, totalBytes: s.bytes, source: s.source.address })));
    const dir = path.join(stack.dir, 'backups');
    for (const s of m.shards) {
      // From the in-sync replica of its shard: the primary never forked.
      const replica = topo.shards[s.shard]!.instances.find((i) => i.role === 'replica')!;
      expect(s.source).toMatchObject({ role: 'replica', instanceId: replica.id, address: replica.address });
      expect(s.slots).toEqual(topo.shards[s.shard]!.slots);
      const file = readFileSync(path.join(dir, s.file));
      expect(file.length).toBe(s.bytes);
      expect(createHash('sha256').update(file).digest('hex')).toBe(s.sha256);
    }
    // Every key loaded before (the writer's keys come on top).
    expect(m.shards.reduce((n, s) => n + s.keys, 0)).toBeGreaterThanOrEqual(keys.length + ackedBefore.length);
    expect(m.shards.reduce((n, s) => n + s.keysWithExpiry, 0)).toBe(N / 3 * 6);
    // The manifest is in the storage too, written last.
    expect(JSON.parse(readFileSync(path.join(dir, backup.id, 'manifest.json'), 'utf8'))).toEqual(m);
    const listed = await api.call<BackupList>('GET', `/v1/clusters/${srcId}/backups`);
    expect(listed.body.items.map((b) => b.id)).toEqual([backup.id]);

    // Refusals: nothing is created for any of them.
    const restore = (over: Record<string, unknown>) => api.createCluster({ name: 'restored', shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, restoreFrom: { backupId: backup.id }, ...over });
    const unknown = await restore({ restoreFrom: { backupId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'restoreFrom.backupId' })]);
    // Into one shard, the whole data set (and 10%) must fit.
    const oneShard = await restore({ shards: 1, memoryMbPerShard: 16 });
    expect(oneShard.status).toBe(422);
    expect(oneShard.body).toMatchObject({ code: 'restore_memory_too_small', errors: [{ field: 'memoryMbPerShard', message: expect.stringMatching(/at least \d+ MB/) }] });
    expect(Number(/at least (\d+) MB/.exec(oneShard.body.errors![0]!.message)![1])).toBeGreaterThan(BIG);
    const small = await restore({ memoryMbPerShard: 16 });
    expect(small.status).toBe(422);
    expect(small.body.code).toBe('restore_memory_too_small');
    expect(small.body.errors![0]).toMatchObject({ field: 'memoryMbPerShard', message: expect.stringMatching(/at least \d+ MB/) });
    const neededMb = Number(/at least (\d+) MB/.exec(small.body.errors![0]!.message)![1]);
    expect(neededMb).toBeGreaterThan(16);
    // One flipped byte: refused naming the file, before anything is created.
    const victim = path.join(dir, m.shards[1]!.file);
    const good = readFileSync(victim);
    const bad = Buffer.from(good);
    bad[Math.floor(bad.length / 2)]! ^= 0xff;
    writeFileSync(victim, bad);
    const corrupted = await restore({});
    writeFileSync(victim, good);
    expect(corrupted.status).toBe(422);
    expect(corrupted.body).toMatchObject({ code: 'backup_corrupted', errors: [{ field: 'restoreFrom.backupId', message: expect.stringContaining(m.shards[1]!.file) }] });
    // A backup still running cannot be restored.
    const second = await api.call<BackupResponse>('POST', `/v1/clusters/${srcId}/backups`, {});
    const running = await restore({ restoreFrom: { backupId: second.body.backup.id } });
    expect(running.status).toBe(422);
    expect(running.body.code).toBe('backup_not_completed');
    await waitForBackup(second.body.backup.id);
    expect((await api.listClusters()).body.items.map((c) => c.name)).toEqual(['source']);

    // The restore: ready only once every key is in.
    const t0 = Date.now();
    const restored = await restore({});
    expect(restored.status).toBe(202);
    const newId = restored.body.cluster.id;
    await api.waitForHealthy(newId, 90_000);
    const restoreMs = Date.now() - t0;
    const dst = appClient((await api.connection(newId)).body.uri);
    try {
      await expectSameKeys(src, dst, keys);
      for (const key of ackedBefore) expect(await dst.get(key), key).toBe(await src.get(key));
      // Replicas synced the restored data.
      for (const node of dst.nodes('master')) expect(Number(await node.call('WAIT', '1', '5000'))).toBe(1);
      console.log(`backup of ${keys.length + writer.acked.length} keys (${m.shards.reduce((n, s) => n + s.bytes, 0)} bytes, skew ${m.skewMs} ms) in ${Date.parse(m.finishedAt) - Date.parse(m.startedAt)} ms; restore to healthy in ${restoreMs} ms`);

      // The Activity: each backup's end on the source, the restore on the new cluster.
      const bytes = m.shards.reduce((n, s) => n + s.bytes, 0);
      const ended = (await api.events(srcId)).body.items.filter((e) => e.type === 'backup-completed');
      expect(ended.map((e) => e.type === 'backup-completed' && e.backupId).sort()).toEqual([backup.id, second.body.backup.id].sort());
      expect(ended.find((e) => e.type === 'backup-completed' && e.backupId === backup.id)).toMatchObject({
        trigger: 'manual', consistent: false, bytes, keys: m.shards.reduce((n, s) => n + s.keys, 0), message: expect.stringMatching(/^Backup completed: [\d,]+ keys/),
      });
      await api.waitForEvent(newId, 'restore-completed', () => true);
      expect((await api.events(newId)).body.items.filter((e) => e.type === 'restore-completed')).toEqual([
        expect.objectContaining({ backupId: backup.id, mode: 'seed', sourceClusterName: 'source', message: expect.stringContaining('each file loaded by its shard') }),
      ]);

      // Prometheus: the source's last completed backup (the second one); the restored cluster has none.
      const latest = await waitForBackup(second.body.backup.id);
      const scrape = await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${readFileSync(path.join(stack.dir, 'metrics-token'), 'utf8').trim()}` } });
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      const series = (name: string, id = srcId) => text.split('\n').filter((l) => l.startsWith(`${name}{cluster="`) && l.includes(`cluster_id="${id}"`)).map((l) => Number(l.split(' ').pop()));
      expect(series('strata_backup_last_success_timestamp_seconds')).toEqual([Date.parse(latest.finishedAt!) / 1000]);
      expect(series('strata_backup_last_success_size_bytes')).toEqual([latest.manifest!.shards.reduce((n, s) => n + s.bytes, 0)]);
      const [duration] = series('strata_backup_last_success_duration_seconds');
      expect(duration).toBeCloseTo((Date.parse(latest.manifest!.finishedAt) - Date.parse(latest.manifest!.startedAt)) / 1000, 3);
      expect(text).toMatch(/# TYPE strata_backup_last_success_timestamp_seconds gauge/);
      expect(series('strata_backup_last_success_timestamp_seconds', newId)).toEqual([]);

      // A failed backup (here cancelled) is on the Activity with its reason.
      const third = await api.call<BackupResponse>('POST', `/v1/clusters/${srcId}/backups`, {});
      expect((await api.call('POST', `/v1/backups/${third.body.backup.id}/cancel`)).status).toBe(200);
      expect(await api.waitForEvent(srcId, 'backup-failed', (e) => e.backupId === third.body.backup.id)).toMatchObject({ code: 'cancelled', reason: 'cancelled by a user', trigger: 'manual' });
    } finally {
      src.disconnect();
      dst.disconnect();
    }
  }, 180_000);
  it('restores a 3x1 backup taken under a writer into 5x0 key by key; the agent moving a file killed -9 mid-move leaves no temporary engine and the move completes; the 3x1 imported by URL has its three primaries as shards', async () => {
    const created = await api.createCluster({ name: 'three', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const srcId = created.body.cluster.id;
    const srcTopo = await api.waitForHealthy(srcId);
    const uri = (await api.connection(srcId)).body.uri;
    const src = appClient(uri);
    const keys = await loadMany(src);
    const writer = new DurableWriter(appClient(uri), 'w3', 1).start();
    await new Promise((r) => setTimeout(r, 300));
    const ackedBefore = [...writer.acked];
    const started = await api.call<BackupResponse>('POST', `/v1/clusters/${srcId}/backups`, {});
    expect(started.status).toBe(202);
    const backup = await waitForBackup(started.body.backup.id);
    await writer.stop();
    writer['client'].disconnect();
    const fileKeys = backup.manifest!.shards.map((s) => s.keys);

    const restored = await api.createCluster({ name: 'five', shards: 5, replicasPerShard: 0, memoryMbPerShard: 64, restoreFrom: { backupId: backup.id } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(202);
    const newId = restored.body.cluster.id;
    const opId = restored.body.operation.id;
    expect(restored.body.operation.steps.map((s) => s.name)).toEqual(['plan', 'start-instances', 'form-cluster', 'load-data', 'verify']);
    // The restore reads the backup's files until its operation ends: deleting the backup meanwhile is refused, naming the operation.
    const inUse = await api.call<Problem & { operationId?: string }>('DELETE', `/v1/backups/${backup.id}`);
    expect(inUse.status, JSON.stringify(inUse.body)).toBe(409);
    expect(inUse.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(inUse.body).toMatchObject({ code: 'backup_in_use', operationId: opId, detail: expect.stringContaining(`operation ${opId}`) });
    expect((await backupOf(backup.id)).status).toBe('completed');

    // Mid-move: a file's temporary engine runs while the operation shows that file not loaded yet; its agent is killed.
    const scratch = (a: (typeof stack.agents)[number]) => path.join(a.dir, 'restore-scratch');
    const tempEngines = () => stack.agents.flatMap((a) => redisUnder(scratch(a)).map((e) => ({ agent: a, ...e })));
    const { victim, detail } = await api.pollUntil(async () => {
      const step = (await api.call<Operation>('GET', `/v1/operations/${opId}`)).body.steps.find((s) => s.name === 'load-data');
      // A file not loaded yet ("starting" or "x/y keys" with x < y) whose temporary engine runs: its move is under way
      // (the step's detail follows the reconciler's passes, seconds apart on a busy host, so "x/y" alone can be missed).
      const partWay = new Set([...(step?.detail ?? '').matchAll(/shard (\d+): (?:starting|(\d+)\/(\d+) keys)/g)]
        .filter((m) => m[2] === undefined || Number(m[2]) < Number(m[3])).map((m) => Number(m[1])));
      const moving = tempEngines().find((e) => partWay.has(e.shard));
      return moving ? { victim: moving, detail: step!.detail } : undefined;
    }, 60_000, () => 'no file was seen part-way through its move', { steady: true });
    // Placement counts the temporary engines' memory while they run: it is free again once the restore is done.
    const freeMb = async () => (await api.call<Capacity>('GET', '/v1/capacity')).body.nodeFreeMemoryMb!.reduce((a, b) => a + b, 0);
    const freeDuringMove = await freeMb();
    victim.agent.proc!.child.kill('SIGKILL');
    await api.pollUntil(async () => (victim.agent.restarts > 0 ? true : undefined), 30_000, () => `${victim.agent.name} was not restarted`);
    console.log(`killed ${victim.agent.name} moving backup shard ${victim.shard} (${detail})`);

    await api.waitForHealthy(newId, 120_000);
    const op = (await api.call<Operation>('GET', `/v1/operations/${opId}`)).body;
    expect(op.state).toBe('succeeded');
    const smallestFileMb = Math.ceil(Math.min(...backup.manifest!.shards.map((s) => s.usedMemoryBytes)) / (1024 * 1024));
    const freeAfter = await freeMb();
    console.log(`free memory during the move ${freeDuringMove} MB, after ${freeAfter} MB; smallest file's source used ${smallestFileMb} MB`);
    expect(freeAfter - freeDuringMove).toBeGreaterThanOrEqual(smallestFileMb);
    expect(op.steps.find((s) => s.name === 'load-data')!.detail).toMatch(/^3 backup file\(s\) loaded: shard 0: done \(\d+ keys\), shard 1: done/);
    await api.waitForEvent(newId, 'restore-completed', () => true);
    // Once the restore has ended the backup can go.
    expect((await api.call('DELETE', `/v1/backups/${backup.id}`)).status).toBe(204);
    expect((await api.events(newId)).body.items.filter((e) => e.type === 'restore-completed')).toEqual([
      expect.objectContaining({ backupId: backup.id, mode: 'move', message: expect.stringContaining('keys moved by slot from 3 file(s) into 5 shard(s)') }),
    ]);
    // The killed agent's temporary engine was stopped when it came back; no temporary engine or directory is left anywhere.
    expect(isRunning(victim.pid), `temporary engine ${victim.pid}`).toBe(false);
    expect(tempEngines()).toEqual([]);
    for (const a of stack.agents) expect(existsSync(scratch(a)) ? readdirSync(scratch(a)) : [], scratch(a)).toEqual([]);

    const dst = appClient((await api.connection(newId)).body.uri);
    try {
      await expectSameKeys(src, dst, keys);
      for (const key of ackedBefore) expect(await dst.get(key), key).toBe(await src.get(key));

      // The source cluster imported by URL, as a Redis Cluster from outside would be: every primary is one shard, with its slots.
      const primary = srcTopo.shards[0]!.instances.find((i) => i.role === 'primary')!;
      const agent = stack.agents.find((a) => primary.address.startsWith(`${a.address}:`))!;
      const creds = (JSON.parse(readFileSync(path.join(agent.dir, 'instances.json'), 'utf8')) as { spec: { instanceId: string }; credentials: { internalUser: string; internalPassword: string } }[])
        .find((r) => r.spec.instanceId === primary.id)!.credentials;
      const imported = await api.call<BackupResponse>('POST', '/v1/backups/import', { url: `redis://${creds.internalUser}:${encodeURIComponent(creds.internalPassword)}@${primary.address}` });
      expect(imported.status, JSON.stringify(imported.body)).toBe(202);
      const fromCluster = (await waitForBackup(imported.body.backup.id)).manifest!;
      expect(fromCluster.shards.map((s) => s.slots)).toEqual(srcTopo.shards.map((s) => s.slots));
      let srcKeys = 0;
      for (const node of src.nodes('master')) srcKeys += Number(await node.dbsize());
      expect(fromCluster.shards.reduce((n, s) => n + s.keys, 0)).toBe(srcKeys);
      expect(await settledPrimaries(dst, () => api.primaryAddresses(newId))).toHaveLength(5);
      let total = 0;
      for (const node of dst.nodes('master')) total += Number(await node.dbsize());
      // Every key of every file (less any whose TTL ran out: none here, their TTLs are 10 minutes).
      expect(total).toBe(fileKeys.reduce((n, k) => n + k, 0));
    } finally {
      src.disconnect();
      dst.disconnect();
    }
  }, 240_000);
  it('a new primary killed -9 while keys are moved into it, after a file finished: the restore loads again what it lost and ends with every key', async () => {
    const created = await api.createCluster({ name: 'three-b', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const srcId = created.body.cluster.id;
    await api.waitForHealthy(srcId);
    const src = appClient((await api.connection(srcId)).body.uri);
    const keys = await loadMany(src);
    // One file holds 1,600 keys more (one slot's): it moves for seconds after the others are done.
    const slow = Array.from({ length: 1600 }, (_, i) => `{slow}:${i}`);
    await Promise.all(slow.map((k, i) => src.set(k, `v${i}`)));
    keys.push(...slow);
    for (const node of src.nodes('master')) expect(Number(await node.call('WAIT', '1', '5000'))).toBe(1);
    const backup = await waitForBackup((await api.call<BackupResponse>('POST', `/v1/clusters/${srcId}/backups`, {})).body.backup.id);
    const restored = await api.createCluster({ name: 'two-b', shards: 2, replicasPerShard: 0, memoryMbPerShard: 64, restoreFrom: { backupId: backup.id } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(202);
    const newId = restored.body.cluster.id;
    const opId = restored.body.operation.id;
    // One file's keys are all in (some of them on each new primary) while another file is still moving.
    const seen = new Set<string>();
    const detail = await api.pollUntil(async () => {
      const d = (await api.call<Operation>('GET', `/v1/operations/${opId}`)).body.steps.find((s) => s.name === 'load-data')?.detail ?? '';
      seen.add(d);
      return /shard \d: done/.test(d) && /shard \d: (starting|\d+\/\d+ keys)/.test(d) ? d : undefined;
    }, 60_000, () => `no moment with one file done and another moving: ${[...seen].join(' | ')}`, { steady: true });
    const topo = await api.topology(newId);
    const victim = topo.body.shards[0]!.instances[0]!;
    process.kill(enginePid(victim.address), 'SIGKILL');
    console.log(`killed new primary ${victim.address} at "${detail}"`);

    await api.waitForPhase(newId, 'ready', 120_000).catch(async (err: Error) => {
      const o = (await api.call<Operation>('GET', `/v1/operations/${opId}`)).body;
      const c = (await api.getCluster(newId)).body;
      throw new Error(`${err.message}; steps: ${o.steps.map((x) => `${x.name} ${x.state} ${x.detail ?? ''}`).join(' | ')}; conditions: ${JSON.stringify(c.status.conditions)}; topology: ${JSON.stringify((await api.topology(newId)).body.shards)}`);
    });
    const op = (await api.call<Operation>('GET', `/v1/operations/${opId}`)).body;
    expect(op.state).toBe('succeeded');
    // The user is told: the engine restarted without its data, and every file was loaded again after it.
    const events = (await api.events(newId)).body.items;
    expect(events.filter((e) => e.type === 'instance-restarted').map((e) => e.instance.instanceId)).toEqual([victim.id]);
    const dst = appClient((await api.connection(newId)).body.uri);
    try {
      await expectSameKeys(src, dst, keys);
    } finally {
      src.disconnect();
      dst.disconnect();
    }
    expect(op.steps.find((s) => s.name === 'load-data')!.detail).toMatch(/^3 backup file\(s\) loaded in round 2 \(an engine of the new cluster restarted/);
    await api.deleteCluster(newId);
    await api.deleteCluster(srcId);
    await api.waitForGone(newId);
    await api.waitForGone(srcId);
  }, 240_000);

  it('imports a running standalone Redis as a backup (its password never shown) and restores it into 2x0 key by key; a source that cannot be imported is named', async () => {
    const host = loopbackAddress('127.0.46.200');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-import-src-'));
    const source = spawn('redis-server', ['--bind', host, '--port', '6390', '--requirepass', 's3cret', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    try {
      const src = await api.pollUntil(async () => {
        const c = new Redis({ host, port: 6390, password: 's3cret', lazyConnect: true, retryStrategy: () => null });
        c.on('error', () => {});
        return c.connect().then(() => c, () => { c.disconnect(); return undefined; });
      }, 10_000, () => 'the source redis-server did not start');
      const keys: string[] = [];
      const ops: Promise<unknown>[] = [];
      for (let i = 0; i < 150; i++) {
        ops.push(src.set(`s:${i}`, `v${i}`), src.hset(`h:${i}`, { a: `${i}` }), src.rpush(`l:${i}`, 'a', `${i}`), src.sadd(`t:${i}`, `m${i}`), src.zadd(`z:${i}`, i, `s${i}`), src.xadd(`x:${i}`, '*', 'f', `${i}`));
        keys.push(`s:${i}`, `h:${i}`, `l:${i}`, `t:${i}`, `z:${i}`, `x:${i}`);
        if (i % 3 === 0) for (const k of keys.slice(-6)) ops.push(src.expire(k, 600));
      }
      ops.push(src.set('big', 'z'.repeat(MB + 1)));
      keys.push('big');
      await Promise.all(ops);

      const importOf = (url: string) => api.call<BackupResponse & Problem>('POST', '/v1/backups/import', { url });
      const named = async (url: string, status: number, code: string) => {
        const r = await importOf(url);
        expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status, code });
        expect(r.body.errors).toEqual([expect.objectContaining({ field: 'url' })]);
      };
      await named(`redis://${host}`, 400, 'validation_failed');
      await named(`redis://:s3cret@${host}:6391`, 422, 'import_unreachable');
      await named(`redis://:wrong@${host}:6390`, 422, 'import_auth_failed');
      await named(`redis://${host}:6390`, 422, 'import_auth_failed');
      await named(`redis://${new URL(stack.url).host}`, 422, 'import_not_redis');

      const started = await importOf(`redis://:s3cret@${host}:6390`);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      expect(started.body.backup).toMatchObject({ status: 'running', trigger: 'import', importedFrom: `redis://${host}:6390`, clusterDeleted: false });
      expect(JSON.stringify(started.body)).not.toContain('s3cret');
      const backup = await waitForBackup(started.body.backup.id);
      expect(backup.manifest!.shards).toEqual([expect.objectContaining({ shard: 0, slots: [{ start: 0, end: 16383 }], keys: keys.length, keysWithExpiry: 50 * 6 })]);

      const restored = await api.createCluster({ name: 'imported', shards: 2, replicasPerShard: 0, memoryMbPerShard: 64, restoreFrom: { backupId: backup.id } });
      expect(restored.status, JSON.stringify(restored.body)).toBe(202);
      await api.waitForHealthy(restored.body.cluster.id, 90_000);
      const dst = appClient((await api.connection(restored.body.cluster.id)).body.uri);
      try {
        await expectSameKeys(src, dst, keys);
      } finally {
        dst.disconnect();
        src.disconnect();
      }
    } finally {
      source.kill('SIGKILL');
      await new Promise((r) => source.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('uploads an RDB saved by a standalone redis-server and restores it into 2x0 key by key; a truncated, damaged, too new or too large file is refused and leaves nothing', async () => {
    const host = loopbackAddress('127.0.46.201');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-upload-src-'));
    const source = spawn('redis-server', ['--bind', host, '--port', '6392', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    try {
      const src = await api.pollUntil(async () => {
        const c = new Redis({ host, port: 6392, lazyConnect: true, retryStrategy: () => null });
        c.on('error', () => {});
        return c.connect().then(() => c, () => { c.disconnect(); return undefined; });
      }, 10_000, () => 'the source redis-server did not start');
      const keys: string[] = [];
      const ops: Promise<unknown>[] = [];
      for (let i = 0; i < 200; i++) {
        ops.push(src.set(`us:${i}`, `v${i}`), src.hset(`uh:${i}`, { a: `${i}`, b: 'x' }), src.rpush(`ul:${i}`, 'a', `${i}`), src.sadd(`ut:${i}`, `m${i}`, 'n'), src.zadd(`uz:${i}`, i, `s${i}`), src.xadd(`ux:${i}`, '*', 'f', `${i}`));
        keys.push(`us:${i}`, `uh:${i}`, `ul:${i}`, `ut:${i}`, `uz:${i}`, `ux:${i}`);
        if (i % 4 === 0) for (const k of keys.slice(-6)) ops.push(src.expire(k, 900));
      }
      ops.push(src.set('ubig', 'q'.repeat(MB + 7)));
      keys.push('ubig');
      await Promise.all(ops);
      expect(await src.call('SAVE')).toBe('OK');
      const rdb = readFileSync(path.join(dir, 'dump.rdb'));
      const usedMemory = Number(/used_memory:(\d+)/.exec(String(await src.call('INFO', 'memory')))![1]);

      const backupsBefore = (await api.call<BackupList>('GET', '/v1/backups')).body.items.length;
      const storageDir = path.join(stack.dir, 'backups');
      const objects = () => (existsSync(storageDir) ? readdirSync(storageDir).sort() : []);
      const objectsBefore = objects();
      const refused = async (body: Buffer, status: number, code: string, opts: { chunked?: boolean } = {}) => {
        const r = await upload(body, opts);
        expect({ status: r.status, code: r.body.code }, JSON.stringify(r.body)).toEqual({ status, code });
        return r.body as unknown as Problem;
      };
      const truncated = await refused(rdb.subarray(0, rdb.length - 1000), 422, 'backup_corrupted');
      expect(truncated.errors).toEqual([expect.objectContaining({ field: 'body', message: expect.stringMatching(/truncated/) })]);
      // A flipped bit anywhere after the header is named by the CRC-64, also where it makes the keys unreadable first.
      for (let at = 0.1; at < 0.95; at += 0.05) {
        const flipped = Buffer.from(rdb);
        flipped[Math.floor(flipped.length * at)]! ^= 0x10;
        expect((await refused(flipped, 422, 'backup_corrupted')).errors![0]!.message).toMatch(/damaged or truncated: its CRC-64/);
      }
      await refused(Buffer.from('this is not an RDB file at all, just some text'), 422, 'backup_corrupted');
      const newer = Buffer.from(rdb);
      newer.write('0011', 5, 'latin1');
      const tooNew = await refused(newer, 422, 'rdb_version_unsupported');
      expect(tooNew.errors).toEqual([{ field: 'body', message: expect.stringMatching(/RDB version 11 .*up to 10/) }]);
      // Over the 8 MB limit: refused from the declared length, or while it streams when none is declared.
      const big = Buffer.concat([rdb, Buffer.alloc(9 * MB)]);
      await refused(big, 413, 'payload_too_large');
      await refused(big, 413, 'payload_too_large', { chunked: true });
      const json = await fetch(`${stack.url}/v1/backups/upload`, { method: 'POST', headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: '{}' });
      expect(json.status).toBe(415);
      // A client that gives up mid-upload: the running upload is listed meanwhile, then nothing of it is kept.
      const aborted = http.request(new URL(`${stack.url}/v1/backups/upload`), { method: 'POST', headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/octet-stream' } });
      aborted.on('error', () => {});
      aborted.write(rdb.subarray(0, 4096));
      await api.pollUntil(async () => ((await api.call<BackupList>('GET', '/v1/backups?trigger=upload&status=running')).body.items.length === 1 ? true : undefined), 10_000, () => 'the upload was not listed while running', { steady: true });
      aborted.destroy();
      await api.pollUntil(async () => ((await api.call<BackupList>('GET', '/v1/backups')).body.items.length === backupsBefore ? true : undefined), 10_000, () => 'the aborted upload was kept');
      // Nothing of the refused uploads is left: no record, no object.
      expect((await api.call<BackupList>('GET', '/v1/backups')).body.items).toHaveLength(backupsBefore);
      expect(objects()).toEqual(objectsBefore);

      const r = await upload(rdb, { name: 'legacy-dump' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const b = (r.body as unknown as BackupResponse).backup;
      expect(r.location).toBe(`/v1/backups/${b.id}`);
      expect(b).toMatchObject({ status: 'completed', trigger: 'upload', clusterName: 'legacy-dump', importedFrom: null, clusterDeleted: false });
      const s = b.manifest!.shards;
      expect(s).toEqual([expect.objectContaining({
        shard: 0, slots: [{ start: 0, end: 16383 }], bytes: rdb.length, sha256: createHash('sha256').update(rdb).digest('hex'), keys: keys.length, keysWithExpiry: 50 * 6,
      })]);
      // The writer's memory, from the file's used-mem field.
      expect(s[0]!.usedMemoryBytes).toBeGreaterThan(MB);
      expect(s[0]!.usedMemoryBytes).toBeLessThanOrEqual(usedMemory * 1.5);
      expect(b.manifest!.engineVersion).toMatch(/^7\./);
      expect(readFileSync(path.join(storageDir, s[0]!.file)).equals(rdb)).toBe(true);
      expect(objects()).toEqual([...objectsBefore, b.id].sort());
      expect((await api.call<BackupList>('GET', '/v1/backups?trigger=upload')).body.items.map((x) => x.id)).toEqual([b.id]);

      // Restore-time check: a stored file of a newer RDB version (its manifest's checksum matching) is refused before anything is created.
      const file = path.join(storageDir, s[0]!.file);
      const db = new pg.Client({ connectionString: stack.databaseUrl });
      await db.connect();
      try {
        writeFileSync(file, newer);
        const m = { ...b.manifest!, shards: [{ ...s[0]!, sha256: createHash('sha256').update(newer).digest('hex') }] };
        await db.query('UPDATE backups SET manifest = $2 WHERE id = $1', [b.id, JSON.stringify(m)]);
        const clustersBefore = (await api.listClusters()).body.items.length;
        const no = await api.createCluster({ name: 'too-new', shards: 2, replicasPerShard: 0, memoryMbPerShard: 64, restoreFrom: { backupId: b.id } });
        expect(no.status).toBe(422);
        expect(no.body).toMatchObject({ code: 'rdb_version_unsupported', errors: [{ field: 'restoreFrom.backupId', message: expect.stringMatching(/shard-0\.rdb: RDB version 11/) }] });
        expect((await api.listClusters()).body.items).toHaveLength(clustersBefore);
      } finally {
        writeFileSync(file, rdb);
        await db.query('UPDATE backups SET manifest = $2 WHERE id = $1', [b.id, JSON.stringify(b.manifest)]);
        await db.end();
      }

      const restored = await api.createCluster({ name: 'uploaded', shards: 2, replicasPerShard: 0, memoryMbPerShard: 64, restoreFrom: { backupId: b.id } });
      expect(restored.status, JSON.stringify(restored.body)).toBe(202);
      await api.waitForHealthy(restored.body.cluster.id, 90_000);
      const dst = appClient((await api.connection(restored.body.cluster.id)).body.uri);
      try {
        await expectSameKeys(src, dst, keys);
      } finally {
        dst.disconnect();
        src.disconnect();
      }
    } finally {
      source.kill('SIGKILL');
      await new Promise((r) => source.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** POST /v1/backups/upload with a raw body (chunked: no Content-Length); the answer even when the server stops reading early. */
function upload(body: Buffer, opts: { name?: string; chunked?: boolean } = {}): Promise<{ status: number; body: Problem & Partial<BackupResponse>; location: string | undefined }> {
  const url = new URL(`${stack.url}/v1/backups/upload${opts.name ? `?name=${encodeURIComponent(opts.name)}` : ''}`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/octet-stream', ...(opts.chunked ? {} : { 'content-length': String(body.length) }) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), location: res.headers.location }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 256 * 1024) req.write(body.subarray(i, i + 256 * 1024));
    req.end();
  });
}
