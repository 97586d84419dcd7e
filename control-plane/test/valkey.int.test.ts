/**
 * The valkey-8 engine: a cluster created with `engineVersion: "valkey-8"` runs valkey-server (never a warm spare, which
 * is a redis-server), serves the same clients through the same URI, and its engine cannot be changed in place; a
 * Redis 7.0 cluster beside it keeps its redis-server and refuses a TLS switch, saying it needs the valkey-8 engine
 * (a valkey-8 one plans it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { Cluster, Redis } from 'ioredis';
import type { Topology } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { countPresent, loadKeys } from './helpers/workload';

let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.125', { nodes: 2 }));
});
afterAll(async () => cleanup?.());

const split = (address: string) => ({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) });
/** The program (redis-server or valkey-server) serving host:port, as its process title says. */
function programOn(address: string): string {
  const lines = execFileSync('pgrep', ['-a', 'redis-server|valkey-server'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(` ${address} `) || l.endsWith(` ${address}`));
  expect(lines, `one engine on ${address}`).toHaveLength(1);
  return lines[0]!.split(' ')[1]!;
}
const addresses = (t: Topology) => t.shards.flatMap((s) => s.instances.map((i) => i.address));

function plainClient(uri: string): Cluster {
  const u = new URL(uri);
  const c = new Cluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 1000, commandTimeout: 3000 },
    slotsRefreshTimeout: 1000, retryDelayOnFailover: 20, retryDelayOnClusterDown: 50, retryDelayOnTryAgain: 20,
  });
  c.on('error', () => {});
  return c;
}

describe('the valkey-8 engine', () => {
  it('runs valkey-server for a valkey-8 cluster and redis-server for a 7 one; the engine is set at create; TLS switches only on valkey-8', async () => {
    const [vk, rd] = await Promise.all([
      api.createCluster({ name: 'vk', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32, engineVersion: 'valkey-8' }),
      api.createCluster({ name: 'rd', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }),
    ]);
    expect(vk.status, JSON.stringify(vk.body)).toBe(202);
    expect(vk.body.cluster.spec.engineVersion).toBe('valkey-8');
    expect(rd.body.cluster.spec.engineVersion).toBe('7');
    const [vkTopology, rdTopology] = await Promise.all([api.waitForHealthy(vk.body.cluster.id, 60_000), api.waitForHealthy(rd.body.cluster.id, 60_000)]);
    for (const a of addresses(vkTopology)) expect(programOn(a)).toBe('valkey-server');
    for (const a of addresses(rdTopology)) expect(programOn(a)).toBe('redis-server');

    // The same URI and client: a Redis Cluster client writes and reads; the instances say they are Valkey 8 (Redis 7.2's protocol).
    const conn = (await api.connection(vk.body.cluster.id)).body;
    expect(conn.uri.startsWith('redis://')).toBe(true);
    const app = plainClient(conn.uri);
    await loadKeys(app, 'k', 500, 1);
    expect(await countPresent(app, 'k', 500)).toBe(500);
    app.disconnect();
    const one = new Redis({ ...split(addresses(vkTopology)[0]!), username: conn.username, password: conn.password, lazyConnect: true, maxRetriesPerRequest: 0 });
    await one.connect();
    const info = await one.info('server');
    one.disconnect();
    expect(info).toMatch(/valkey_version:8\./);
    expect(info).toMatch(/redis_version:7\.2\./);

    // The engine is set at create: another one is refused, naming the field, and nothing changes.
    const change = await api.updateCluster(vk.body.cluster.id, { engineVersion: '7' });
    expect(change.status, JSON.stringify(change.body)).toBe(422);
    expect(change.body).toMatchObject({ code: 'engine_change_unsupported', errors: [{ field: 'engineVersion' }] });
    // Redis 7.0 cannot serve both protocols to cluster clients: TLS in place is refused, saying why and what would allow it.
    const tlsOn7 = await api.updateCluster(rd.body.cluster.id, { tls: 'required' });
    expect(tlsOn7.status, JSON.stringify(tlsOn7.body)).toBe(422);
    expect(tlsOn7.body).toMatchObject({ code: 'tls_switch_needs_valkey', errors: [{ field: 'tls' }] });
    expect(tlsOn7.body.detail).toMatch(/valkey-8/);
    expect((await api.getCluster(rd.body.cluster.id)).body.spec.tls).toBe('off');
    // On valkey-8 TLS switches in place (tls-switch.int.test.ts): its dry run plans the stages, changing nothing.
    const tlsOnValkey = await api.updateCluster(vk.body.cluster.id, { tls: 'required' }, true);
    expect(tlsOnValkey.status, JSON.stringify(tlsOnValkey.body)).toBe(200);
    expect(tlsOnValkey.body.plan.steps.map((s) => s.name)).toEqual(['serve-tls-beside-plain', 'close-plain']);
    expect((await api.getCluster(vk.body.cluster.id)).body.spec.tls).toBe('off');
    expect((await api.getCluster(vk.body.cluster.id)).body.spec.engineVersion).toBe('valkey-8');
    // Its snapshots (RDB 11) could not be restored: a backup is refused up front, naming why, and none is recorded.
    const backup = await api.call<{ code: string; errors: { field: string }[] }>('POST', `/v1/clusters/${vk.body.cluster.id}/backups`, {});
    expect(backup.status, JSON.stringify(backup.body)).toBe(422);
    expect(backup.body).toMatchObject({ code: 'backup_engine_unsupported', errors: [{ field: 'engineVersion' }] });
    expect((await api.call<{ items: unknown[] }>('GET', `/v1/clusters/${vk.body.cluster.id}/backups`)).body.items).toEqual([]);
  });
});
