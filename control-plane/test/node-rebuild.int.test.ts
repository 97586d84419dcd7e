/**
 * Losing a whole node (agent and every engine killed) while a client
 * writes: Redis fails over, the node is declared down, every copy it held is
 * rebuilt on the remaining nodes (also across a kill -9 of the control plane
 * as the rebuild begins), the cluster is ready again with its
 * replication factor restored and every replicated key; when the node comes
 * back its stale engines are removed, never serving as primaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Stack } from '@strata/local';
import { redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.25', {
    nodes: 4, extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '3000', STRATA_REBALANCE_AFTER_MS: '2000' },
  }));
});
afterAll(async () => cleanup?.());

const KEYS = 10_000;

describe('a node lost with its engines', () => {
  it('is healed: failover, node-down, replicas rebuilt elsewhere, ready with every replicated key; its return leaves no stale engine', async () => {
    const r = await api.createCluster({ name: 'lose-a-node', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    const before = await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const uri = conn.uri;
    // As the README tells applications: give the client every seed, not one host.
    const app = appClient(uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    const writer = new DurableWriter(appClient(uri, conn.seeds), 'w', 1).start();
    await new Promise((res) => setTimeout(res, 300));

    // The node holding shard 0's primary goes away entirely.
    const victimNodeId = before.shards[0]!.instances.find((i) => i.role === 'primary')!.nodeId;
    const index = stack.agents.findIndex((a) => before.shards[0]!.instances.some((i) => i.nodeId === victimNodeId && i.address.startsWith(`${a.address}:`)));
    const agent = stack.agents[index]!;
    const lostIds = before.shards.flatMap((s) => s.instances).filter((i) => i.nodeId === victimNodeId).map((i) => i.id);
    expect(lostIds.length).toBeGreaterThanOrEqual(1);
    await stack.stopAgent(index, 'SIGKILL');
    for (const pid of redisPidsOn([agent.address])) process.kill(pid, 'SIGKILL');
    const lostAt = Date.now();

    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 0);
    expect(['node-lost', 'engine']).toContain(failover.cause);
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === victimNodeId);
    // The control plane dies without warning as the rebuild begins; a new one finishes it.
    await stack.stopControlPlane('SIGKILL');
    await stack.startControlPlane();
    // Generous: the new control plane first waits out the dead one's lease, and a loaded CI machine is slower.
    await api.waitForEvent(id, 'replica-rebuilt', (e) => e.shard === 0, 60_000);

    const healed = await api.waitForHealthy(id, 90_000);
    const healedAfterMs = Date.now() - lostAt;
    for (const s of healed.shards) {
      expect(s.instances).toHaveLength(2);
      expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(2);
      expect(s.instances.some((i) => i.nodeId === victimNodeId)).toBe(false);
    }
    await writer.stop();
    const fresh = appClient(uri, (await api.connection(id)).body.seeds);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    expect(await writer.lost(fresh)).toEqual([]);
    console.log(`node lost -> replication factor restored in ${healedAfterMs} ms; writer ${writer.acked.length} acknowledged, ${writer.errors} errors`);

    // The node comes back: its old engines are removed; no stale primary, no second owner of any slot.
    await stack.startAgent(index);
    const deadline = Date.now() + 30_000;
    while (redisPidsOn([agent.address]).length > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 200));
    expect(redisPidsOn([agent.address])).toEqual([]);
    const t = await api.waitForHealthy(id);
    const internal = (await import('node:fs')).readFileSync(`${stack.agents[(index + 1) % 4]!.dir}/instances.json`, 'utf8');
    const creds = (JSON.parse(internal) as { credentials: { internalUser: string; internalPassword: string } }[])[0]!.credentials;
    for (const inst of t.shards.flatMap((s) => s.instances)) {
      const [host, port] = inst.address.split(':');
      const c = new Redis({ host, port: Number(port), username: creds.internalUser, password: creds.internalPassword });
      const nodes = String(await c.call('CLUSTER', 'NODES')).trim().split('\n');
      expect(nodes).toHaveLength(6);
      expect(nodes.filter((l) => / master /.test(l.replace(/myself,/, '')) || l.includes(',master ')).length).toBeGreaterThanOrEqual(3);
      expect(nodes.some((l) => l.includes(`${agent.address}:`))).toBe(false);
      c.disconnect();
    }
    expect(lostIds.every((lid) => !t.shards.flatMap((s) => s.instances).some((i) => i.id === lid))).toBe(true);
    app.disconnect();
    fresh.disconnect();
    writer['client'].disconnect();
  });
});
