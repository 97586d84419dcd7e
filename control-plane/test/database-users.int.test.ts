/**
 * Database users on a real stack (real agents and redis-server), a 2 x 1
 * cluster with a writer running throughout: bad input refused naming the
 * field with nothing applied; a read-only user reads on every shard through
 * a cluster client and gets NOPERM on writes and outside its key patterns;
 * a rotation keeps both passwords during the grace period and only the new
 * one after; a delete closes the user's open connection; a replica killed
 * and restarted, and a shard added, still have the users.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import type { DatabaseUserList, DatabaseUserWithPassword, Problem, Topology } from '@strata/api';
import type { Stack } from '@strata/local';
import { internalCredentials as internalOf, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, enginePid } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let clusterId: string;
let writer: Cluster;
let writing = true;
let written = 0;
let writeErrors = 0;
let writeLoop: Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.124'));
  const r = await api.createCluster({ name: 'users', shards: 2, replicasPerShard: 1, memoryMbPerShard: 32 });
  clusterId = r.body.cluster.id;
  await api.waitForHealthy(clusterId);
  const conn = (await api.connection(clusterId)).body;
  writer = appClient(conn.uri, conn.seeds);
  // 500 keys cover every shard's slots; the writer keeps rewriting them.
  await Promise.all(Array.from({ length: 500 }, (_, i) => writer.set(`orders:${i}`, 'v0')));
  writeLoop = (async () => {
    while (writing) {
      await writer.set(`orders:${written % 500}`, `v${written}`).then(() => { written++; }, () => { writeErrors++; });
      await new Promise((res) => setTimeout(res, 5));
    }
  })();
}, 120_000);
afterAll(async () => {
  writing = false;
  await writeLoop;
  writer?.disconnect();
  await cleanup?.();
});

const usersPath = () => `/v1/clusters/${clusterId}/users`;
const instances = async (): Promise<string[]> => ((await api.topology(clusterId)).body as Topology).shards.flatMap((s) => s.instances.map((i) => i.address));

const internalCredentials = (address: string) => internalOf(stack, address);

function connect(address: string, auth: { username: string; password: string }): Redis {
  const [host, port] = address.split(':');
  const c = new Redis({ host, port: Number(port), ...auth, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => {});
  return c;
}

/** Does AUTH with these credentials succeed on the instance? */
async function canAuth(address: string, username: string, password: string): Promise<boolean> {
  const [host, port] = address.split(':');
  const c = new Redis({ host, port: Number(port), lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => {});
  try {
    await c.connect();
    return (await c.call('AUTH', username, password)) === 'OK';
  } catch (err) {
    if (/WRONGPASS/.test((err as Error).message)) return false;
    throw err;
  } finally {
    c.disconnect();
  }
}

async function aclUsers(address: string): Promise<string[]> {
  const c = connect(address, internalCredentials(address));
  try {
    await c.connect();
    return ((await c.call('ACL', 'USERS')) as string[]).sort();
  } finally {
    c.disconnect();
  }
}

const waitApplied = () => api.pollUntil(async () => {
  const list = (await api.call<DatabaseUserList>('GET', usersPath())).body;
  return list.items.every((u) => u.applied) ? list : undefined;
}, 20_000, () => 'users not applied on every instance within 20 s');

/** Polls until `probe` holds on every instance. */
const onEvery = (what: string, probe: (address: string) => Promise<boolean>, timeoutMs = 20_000) => api.pollUntil(async () => {
  const all = await instances();
  return (await Promise.all(all.map(probe))).every(Boolean) ? all : undefined;
}, timeoutMs, () => `not on every instance within ${timeoutMs} ms: ${what}`);

describe('database users', () => {
  it('refuses bad input naming the field, and nothing reaches any instance', async () => {
    const bad: [unknown, string][] = [
      [{ name: 'has space', preset: 'read-only' }, 'name'],
      [{ name: 'ctl\u0007', preset: 'read-only' }, 'name'],
      [{ name: 'default', preset: 'read-only' }, 'name'],
      [{ name: 'strata-x', preset: 'read-only' }, 'name'],
      [{ name: 'app', preset: 'read-only' }, 'name'],
      [{ name: 'ok', preset: 'admin' }, 'preset'],
      [{ name: 'ok', preset: 'read-only', keyPatterns: ['a b'] }, 'keyPatterns.0'],
      [{ name: 'ok', preset: 'read-only', keyPatterns: ['orders:*', '+@all'] }, 'keyPatterns.1'],
      [{ name: 'ok', preset: 'read-only', keyPatterns: ['~x'] }, 'keyPatterns.0'],
      [{ name: 'ok', preset: 'read-only', channelPatterns: ['x\ny'] }, 'channelPatterns.0'],
      [{ name: 'ok', preset: 'read-only', password: 'short' }, 'password'],
      [{ name: 'ok', preset: 'read-only', rules: '+@all' }, ''],
    ];
    for (const [body, field] of bad) {
      const r = await api.call<Problem>('POST', usersPath(), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.code).toBe('validation_failed');
      if (field) expect(r.body.errors?.map((e) => e.field), JSON.stringify(body)).toContain(field);
    }
    expect((await api.call<DatabaseUserList>('GET', usersPath())).body.items).toEqual([]);
    for (const address of await instances()) expect(await aclUsers(address)).toEqual(['app', 'default', 'strata-internal']);
  });

  let readerPassword: string;

  it('a read-only user with key patterns reads on every shard, gets NOPERM on writes and other keys; a duplicate name is 409', async () => {
    const r = await api.call<DatabaseUserWithPassword>('POST', usersPath(), { name: 'reader', preset: 'read-only', keyPatterns: ['orders:*'] });
    expect(r.status).toBe(201);
    expect(r.body.password).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.user).toMatchObject({ name: 'reader', preset: 'read-only', keyPatterns: ['orders:*'], channelPatterns: [] });
    readerPassword = r.body.password;
    const dup = await api.call<Problem>('POST', usersPath(), { name: 'reader', preset: 'read-write' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('name_taken');
    expect(dup.body.errors?.[0]?.field).toBe('name');

    const list = await waitApplied();
    expect(JSON.stringify(list)).not.toContain(readerPassword);
    expect(list.items.map((u) => u.name)).toEqual(['reader']);
    // Only the hash is on disk.
    for (const a of stack.agents) {
      for (const f of ['instances.json']) expect(readFileSync(`${a.dir}/${f}`, 'utf8')).not.toContain(readerPassword);
    }

    const conn = (await api.connection(clusterId)).body;
    const reader = appClient(`redis://reader:${readerPassword}@${new URL(conn.uri).host}`, conn.seeds);
    try {
      // Keys on every shard: 500 keys cover both shards' slots.
      const values = await Promise.all(Array.from({ length: 500 }, (_, i) => reader.get(`orders:${i}`)));
      expect(values.every((v) => v !== null && v.startsWith('v'))).toBe(true);
      await expect(reader.set('orders:1', 'x')).rejects.toThrow(/NOPERM/);
      await expect(reader.get('customers:1')).rejects.toThrow(/NOPERM/);
      await expect(reader.call('FLUSHALL')).rejects.toThrow(/NOPERM/);
    } finally {
      reader.disconnect();
    }
    // Each primary answered the reader's reads: both shards hold orders:* keys.
    for (const address of await instances()) expect(await canAuth(address, 'reader', readerPassword)).toBe(true);
  });

  it('rotation: both passwords work during the grace period, only the new one after', async () => {
    const r = await api.call<DatabaseUserWithPassword>('POST', `${usersPath()}/reader/rotate`, { graceSeconds: 4 });
    expect(r.status).toBe(200);
    const next = r.body.password;
    expect(next).not.toBe(readerPassword);
    expect(r.body.user.previousPasswordExpiresAt).not.toBeNull();
    await onEvery('the new password', (a) => canAuth(a, 'reader', next));
    for (const address of await instances()) expect(await canAuth(address, 'reader', readerPassword)).toBe(true);
    await onEvery('the old password refused', async (a) => !(await canAuth(a, 'reader', readerPassword)), 20_000);
    for (const address of await instances()) expect(await canAuth(address, 'reader', next)).toBe(true);
    expect((await api.call<DatabaseUserList>('GET', usersPath())).body.items[0]!.previousPasswordExpiresAt).toBeNull();
    readerPassword = next;

    expect((await api.call<Problem>('POST', `${usersPath()}/nobody/rotate`, {})).status).toBe(404);
    expect((await api.call<Problem>('POST', `${usersPath()}/reader/rotate`, { graceSeconds: -1 })).body.errors?.[0]?.field).toBe('graceSeconds');
  });

  it('delete closes the user\'s open connection at once', async () => {
    const created = await api.call<DatabaseUserWithPassword>('POST', usersPath(), { name: 'worker', preset: 'read-write-safe', password: 'a-user-given-password' });
    expect(created.status).toBe(201);
    expect(created.body.password).toBe('a-user-given-password');
    await waitApplied();
    const address = (await instances())[0]!;
    const c = connect(address, { username: 'worker', password: 'a-user-given-password' });
    await c.connect();
    expect(await c.ping()).toBe('PONG');
    await expect(c.call('KEYS', '*')).rejects.toThrow(/NOPERM/);
    // A subscriber: a connection that stays open, waiting, as long as the server keeps it.
    expect(await c.subscribe('news')).toBe(1);
    const closed = new Promise<void>((res) => c.once('end', () => res()));

    const del = await api.call('DELETE', `${usersPath()}/worker`);
    expect(del.status).toBe(204);
    const t0 = Date.now();
    await closed;
    console.log(`worker's connection closed ${Date.now() - t0} ms after the DELETE answered`);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(c.status).toBe('end');
    await onEvery('worker gone', async (a) => !(await aclUsers(a)).includes('worker'));
    expect((await api.call('DELETE', `${usersPath()}/worker`)).status).toBe(404);
  });

  it('a replica killed and restarted keeps the users (from its redis.conf, only the hash in it)', async () => {
    const topo = (await api.topology(clusterId)).body;
    const replica = topo.shards[0]!.instances.find((i) => i.role === 'replica')!;
    const agent = stack.agents.find((a) => replica.address.startsWith(`${a.address}:`))!;
    const conf = readFileSync(`${agent.dir}/instances/${replica.id}/redis.conf`, 'utf8');
    expect(conf).toMatch(/^user reader reset on #[0-9a-f]{64} ~orders:\* &\* -@all \+@read/m);
    expect(conf).not.toContain(readerPassword);
    const pid = enginePid(replica.address);
    process.kill(pid, 'SIGKILL');
    await api.pollUntil(async () => {
      try {
        return enginePid(replica.address) !== pid ? true : undefined;
      } catch {
        return undefined;
      }
    }, 20_000, () => 'the replica was not restarted');
    await api.waitForHealthy(clusterId);
    expect(await canAuth(replica.address, 'reader', readerPassword)).toBe(true);
  });

  it('a shard added later has the users on its new instances', async () => {
    const r = await api.updateCluster(clusterId, { shards: 3 });
    expect(r.status).toBe(202);
    await api.waitForOperation(r.body.operation.id, 90_000);
    await api.waitForHealthy(clusterId);
    const all = await instances();
    expect(all).toHaveLength(6);
    for (const address of all) expect(await canAuth(address, 'reader', readerPassword)).toBe(true);
    expect(writeErrors).toBeLessThan(written);
    expect(written).toBeGreaterThan(100);
  });
});
