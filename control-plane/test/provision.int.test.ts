import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Stack } from '@strata/local';
import { testStack, redisPidsOn } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { clusterFromUri, standalone } from './helpers/redis-client';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.11'));
});
afterAll(async () => cleanup?.());

describe('a 3 x 1 cluster, end to end against real agents and redis-server', () => {
  let clusterId: string;
  let operationId: string;

  it('is accepted with 202, a Location and an operation', async () => {
    const r = await api.createCluster({ name: 'orders', shards: 3, replicasPerShard: 1, durability: 'aof-everysec' });
    expect(r.status).toBe(202);
    expect(r.headers.get('location')).toBe(`/v1/operations/${r.body.operation.id}`);
    expect(r.body.cluster.status.phase).toBe('provisioning');
    expect(r.body.cluster.spec).toMatchObject({ shards: 3, replicasPerShard: 1, memoryMbPerShard: 256, durability: 'aof-everysec', evictionPolicy: 'noeviction' });
    clusterId = r.body.cluster.id;
    operationId = r.body.operation.id;
  });

  it('becomes ready and its operation succeeds with every step done', async () => {
    const cluster = await api.waitForPhase(clusterId, 'ready');
    expect(cluster.status.conditions.map((c) => [c.type, c.status])).toEqual([['NodesReporting', 'true'], ['InstancesRunning', 'true'], ['ClusterHealthy', 'true'], ['EndpointServed', 'true']]);
    const op = await api.waitForOperation(operationId);
    expect(op.state).toBe('succeeded');
    expect(op.progress).toBe(1);
    expect(op.steps.map((s) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
  });

  it('has a topology with all 16384 slots, healthy instances and no replica beside its primary', async () => {
    const { body } = await api.topology(clusterId);
    expect(body.shards).toHaveLength(3);
    const slots = body.shards.flatMap((s) => s.slots).reduce((n, r) => n + r.end - r.start + 1, 0);
    expect(slots).toBe(16384);
    for (const shard of body.shards) {
      const primary = shard.instances.find((i) => i.role === 'primary')!;
      const replicas = shard.instances.filter((i) => i.role === 'replica');
      expect(replicas).toHaveLength(1);
      for (const r of replicas) expect(r.nodeId).not.toBe(primary.nodeId);
      for (const i of shard.instances) {
        expect(i.health).toBe('healthy');
        expect(i.observedRole).toBe(i.role);
      }
    }
    expect(new Set(body.shards.map((s) => s.instances.find((i) => i.role === 'primary')!.nodeId)).size).toBe(3);
  });

  it('serves 10,000 keys over every slot through the connection URI alone', async () => {
    const conn = (await api.connection(clusterId)).body;
    expect(conn.uri).toMatch(new RegExp(`^redis://app:[0-9a-f]+@${stack.endpointHost.replaceAll('.', '\\.')}:\\d+$`));
    expect(conn.seeds).toHaveLength(3);
    const client = clusterFromUri(conn.uri);
    try {
      for (let base = 0; base < 10_000; base += 1000) {
        await Promise.all(Array.from({ length: 1000 }, (_, i) => client.set(`key:${base + i}`, `value-${base + i}`)));
      }
      const values = await Promise.all(Array.from({ length: 10_000 }, (_, i) => client.get(`key:${i}`)));
      expect(values.filter((v, i) => v === `value-${i}`)).toHaveLength(10_000);
    } finally {
      client.disconnect();
    }
    // Every primary holds a share of the keys.
    for (const seed of conn.seeds) {
      const r = standalone(seed, { username: conn.username, password: conn.password });
      await r.connect();
      const n = await r.dbsize();
      r.disconnect();
      expect(n).toBeGreaterThan(2000);
    }
  });

  it('locks out the default user and denies admin commands to the customer user', async () => {
    const conn = (await api.connection(clusterId)).body;
    const anon = standalone(conn.seeds[0]!);
    await anon.connect();
    await expect(anon.get('key:1')).rejects.toThrow(/NOAUTH/);
    await expect(anon.call('AUTH', 'default', '')).rejects.toThrow(/WRONGPASS|invalid/i);
    anon.disconnect();

    const app = standalone(conn.seeds[0]!, { username: conn.username, password: conn.password });
    await app.connect();
    await expect(app.call('CONFIG', 'GET', 'maxmemory')).rejects.toThrow(/NOPERM/);
    await expect(app.call('SHUTDOWN', 'NOSAVE')).rejects.toThrow(/NOPERM/);
    await expect(app.call('CLUSTER', 'RESET')).rejects.toThrow(/NOPERM/);
    expect(await app.ping()).toBe('PONG');
    app.disconnect();
  });

  it('lists the cluster and shows its instances on the nodes page', async () => {
    expect((await api.listClusters()).body.items.map((c) => c.name)).toContain('orders');
    const nodes = (await api.nodes()).body.items;
    expect(nodes).toHaveLength(3);
    expect(nodes.every((n) => n.status === 'online' && n.instances.length === 2)).toBe(true);
    expect(nodes.every((n) => n.capacity!.usedMemoryMb === 512)).toBe(true);
  });

  it('is deleted: no redis-server of it remains and its data directories are gone', async () => {
    const addresses = stack.agents.map((a) => a.address);
    expect(redisPidsOn(addresses)).toHaveLength(6);
    const { body: topo } = await api.topology(clusterId);
    const ids = topo.shards.flatMap((s) => s.instances.map((i) => i.id));
    const r = await api.deleteCluster(clusterId);
    expect(r.status).toBe(202);
    expect(r.body.cluster.status.phase).toBe('deleting');
    await api.waitForGone(clusterId);
    expect((await api.waitForOperation(r.body.operation.id)).state).toBe('succeeded');
    expect(redisPidsOn(addresses)).toEqual([]);
    for (const a of stack.agents) {
      const dir = path.join(a.dir, 'instances');
      const left = existsSync(dir) ? readdirSync(dir) : [];
      expect(left.filter((d) => ids.includes(d))).toEqual([]);
    }
    expect((await api.listClusters()).body.items).toEqual([]);
    expect((await api.nodes()).body.items.every((n) => n.capacity!.usedMemoryMb === 0)).toBe(true);
  });
});
