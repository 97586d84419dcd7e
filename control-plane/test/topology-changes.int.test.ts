/**
 * Replica count, settings in place and switchover on a real stack, each
 * under a client whose writes count only once a replica acknowledged them
 * (SET + WAIT 1): replicas 1 -> 2 -> 1 keep anti-affinity and new replicas
 * are in sync before the change succeeds; memory, durability and eviction
 * change without restarting any engine (and data that would not fit is
 * refused); a switchover loses no acknowledged write and is an event.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Stack } from '@strata/local';
import type { Topology } from '@strata/api';
import { internalCredentials as internalOf, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, enginePid, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.62', { nodes: 4 }));
});
afterAll(async () => cleanup?.());

const KEYS = 5_000;
const patch = (id: string, body: unknown, dryRun = false) => api.updateCluster(id, body, dryRun);

const internalCredentials = (address: string) => internalOf(stack, address);

async function admin<T>(address: string, fn: (c: Redis) => Promise<T>): Promise<T> {
  const [host, port] = address.split(':');
  const c = new Redis({ host, port: Number(port), ...internalCredentials(address), maxRetriesPerRequest: 1 });
  try {
    return await fn(c);
  } finally {
    c.disconnect();
  }
}

const all = (t: Topology) => t.shards.flatMap((s) => s.instances);

describe('replicas, settings in place and switchover', () => {
  it('replicas 1 -> 2 -> 1 under acknowledged writes: anti-affinity kept, new replicas in sync before success, nothing lost', async () => {
    const r = await api.createCluster({ name: 'replicas', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'r', KEYS, 1);
    const writer = new DurableWriter(appClient(conn.uri, conn.seeds), 'rw', 1).start();

    const up = await patch(id, { replicasPerShard: 2 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    expect(up.body.plan.addInstances).toHaveLength(3);
    expect(up.body.plan.slotMoves).toEqual([]);
    const op = await api.waitForOperation(up.body.operation.id, 90_000);
    expect(op.state, JSON.stringify(op)).toBe('succeeded');
    // Succeeded means in sync: right now every new replica follows its primary with the link up and its data.
    const t3 = (await api.topology(id)).body;
    for (const s of t3.shards) {
      expect(s.instances).toHaveLength(3);
      expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(3);
      const primary = s.instances.find((i) => i.role === 'primary')!;
      const pKeys = await admin(primary.address, (c) => c.dbsize());
      for (const rep of s.instances.filter((i) => up.body.plan.addInstances.some((a) => a.instanceId === i.id))) {
        const info = await admin(rep.address, async (c) => String(await c.info('replication')));
        expect(info).toContain('master_link_status:up');
        expect(await admin(rep.address, (c) => c.dbsize())).toBeGreaterThanOrEqual(Math.min(pKeys, KEYS / 3) - 50);
      }
    }
    await api.waitForHealthy(id);

    const down = await patch(id, { replicasPerShard: 1 });
    expect(down.status, JSON.stringify(down.body)).toBe(202);
    expect(down.body.plan.removeInstances).toHaveLength(3);
    expect(down.body.plan.removeInstances.every((i) => i.role === 'replica')).toBe(true);
    const op2 = await api.waitForOperation(down.body.operation.id, 90_000);
    expect(op2.state, JSON.stringify(op2)).toBe('succeeded');
    const t2 = await api.waitForHealthy(id);
    for (const s of t2.shards) {
      expect(s.instances).toHaveLength(2);
      expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(2);
    }
    // The removed ones are forgotten by every member.
    for (const i of all(t2)) expect(String(await admin(i.address, (c) => c.call('CLUSTER', 'NODES')))).not.toMatch(/fail/);
    for (const i of all(t2)) expect(String(await admin(i.address, (c) => c.call('CLUSTER', 'NODES'))).trim().split('\n')).toHaveLength(6);
    await writer.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await countPresent(fresh, 'r', KEYS)).toBe(KEYS);
    expect(await writer.lost(fresh)).toEqual([]);
    console.log(`replicas 1 -> 2 -> 1: writer ${writer.acked.length} acknowledged, ${writer.errors} errors`);
    for (const c of [app, fresh, writer['client']]) c.disconnect();
  }, 240_000);

  it('memory, durability and eviction change in place (same processes, config files rewritten); data that would not fit is refused', async () => {
    const r = await api.createCluster({ name: 'vertical', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    const t = await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const app = appClient(conn.uri, conn.seeds);
    // ~16 MB per shard: 48 values of 1 MB.
    const big = 'x'.repeat(1024 * 1024);
    await Promise.all(Array.from({ length: 48 }, (_, i) => app.set(`big:{${i}}`, big)));
    const pids = new Map(all(t).map((i) => [i.id, enginePid(i.address)]));
    // Live counts reach the planner through metrics within a couple of seconds.
    let refused: Awaited<ReturnType<typeof patch>> | undefined;
    for (let k = 0; k < 40 && refused?.status !== 422; k++) {
      refused = await patch(id, { memoryMbPerShard: 16 }, true);
      if (refused.status !== 422) await new Promise((res) => setTimeout(res, 250));
    }
    expect(refused!.status, JSON.stringify(refused!.body)).toBe(422);
    expect(refused!.body.code).toBe('does_not_fit');
    expect(refused!.body.errors?.[0]?.field).toBe('memoryMbPerShard');
    expect((await patch(id, { memoryMbPerShard: 16 })).status).toBe(422);
    expect((await api.getCluster(id)).body.spec.memoryMbPerShard).toBe(64);

    const ch = await patch(id, { memoryMbPerShard: 96, durability: 'aof-everysec', evictionPolicy: 'allkeys-lru' });
    expect(ch.status, JSON.stringify(ch.body)).toBe(202);
    expect(ch.body.plan.steps.map((s) => s.name)).toEqual(['configure', 'finish']);
    expect(ch.body.plan.online).toBe(true);
    const op = await api.waitForOperation(ch.body.operation.id, 60_000);
    expect(op.state, JSON.stringify(op)).toBe('succeeded');
    const after = await api.waitForHealthy(id);
    for (const i of all(after)) {
      expect(enginePid(i.address)).toBe(pids.get(i.id));
      const cfg = (await admin(i.address, (c) => c.call('CONFIG', 'GET', 'maxmemory', 'maxmemory-policy', 'appendonly', 'appendfsync'))) as string[];
      const m = Object.fromEntries(cfg.reduce<[string, string][]>((acc, v, k) => (k % 2 ? acc : [...acc, [v, cfg[k + 1]!]]), []));
      expect(m).toEqual({ maxmemory: String(96 * 1024 * 1024), 'maxmemory-policy': 'allkeys-lru', appendonly: 'yes', appendfsync: 'everysec' });
    }
    const agent = stack.agents.find((a) => after.shards[0]!.instances[0]!.address.startsWith(`${a.address}:`))!;
    const conf = readFileSync(`${agent.dir}/instances/${after.shards[0]!.instances[0]!.id}/redis.conf`, 'utf8');
    expect(conf).toContain('maxmemory 96mb');
    expect(conf).toContain('appendonly yes');
    const c = (await api.getCluster(id)).body;
    expect(c.spec).toMatchObject({ memoryMbPerShard: 96, durability: 'aof-everysec', evictionPolicy: 'allkeys-lru' });
    expect(c.observedGeneration).toBe(c.generation);
    expect(await app.get('big:{7}')).toHaveLength(big.length);
    app.disconnect();
  }, 180_000);

  it('switchover under acknowledged writes (aof-always, SET + WAIT 1): the replica takes over once caught up, no acknowledged write lost, an event records it', async () => {
    // Durable writes as the README documents them: aof-always, and SET followed by WAIT 1.
    const r = await api.createCluster({ name: 'switch', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'aof-always' });
    const id = r.body.cluster.id;
    const before = await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const writer = new DurableWriter(appClient(conn.uri, conn.seeds), 'sw', 1).start();
    await new Promise((res) => setTimeout(res, 500));
    expect((await api.switchover(id, 7, {})).body.errors?.[0]?.field).toBe('index');
    expect((await api.switchover(id, 0, { targetInstanceId: before.shards[1]!.instances[1]!.id })).status).toBe(400);
    const oldPrimary = before.shards[0]!.instances.find((i) => i.role === 'primary')!;
    const replica = before.shards[0]!.instances.find((i) => i.role === 'replica')!;
    const sw = await api.switchover(id, 0, { targetInstanceId: replica.id });
    expect(sw.status, JSON.stringify(sw.body)).toBe(202);
    expect(sw.body.operation.kind).toBe('switchover');
    const busy = await patch(id, { shards: 4 });
    expect(busy.status).toBe(409);
    expect(busy.body.operationId).toBe(sw.body.operation.id);
    const op = await api.waitForOperation(sw.body.operation.id, 60_000);
    expect(op.state, JSON.stringify(op)).toBe('succeeded');
    const ev = await api.waitForEvent(id, 'failover', (e) => e.shard === 0 && e.cause === 'switchover');
    expect(ev.newPrimary.instanceId).toBe(replica.id);
    expect(ev.oldPrimary.instanceId).toBe(oldPrimary.id);
    await new Promise((res) => setTimeout(res, 1000));
    const after = await api.waitForHealthy(id);
    const s0 = after.shards[0]!.instances;
    expect(s0.find((i) => i.id === replica.id)).toMatchObject({ role: 'primary', preferredRole: 'primary' });
    expect(s0.find((i) => i.id === oldPrimary.id)).toMatchObject({ role: 'replica', preferredRole: 'replica' });
    await writer.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await writer.lost(fresh)).toEqual([]);
    expect(writer.acked.length).toBeGreaterThan(50);
    console.log(`switchover: writer ${writer.acked.length} acknowledged (SET + WAIT 1), ${writer.errors} errors, longest gap ${writer.longestGapMs} ms`);
    fresh.disconnect();
    writer['client'].disconnect();
    const ops = (await api.clusterOperations(id)).body.items;
    expect(ops[0]!.kind).toBe('switchover');
  }, 120_000);
});
