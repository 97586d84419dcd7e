/**
 * Draining a node for maintenance while a client writes: primaries on it
 * switch over (data-safe), every copy there is rebuilt elsewhere, no
 * acknowledged write is lost and the node ends empty. Default node timeouts:
 * a busy machine must not turn the drained node "down" half-way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import { redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.27', { nodes: 4, extraEnv: { STRATA_REBALANCE_AFTER_MS: '2000' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 10_000;

describe('draining a node', () => {
  it('under writes: primaries switch over, copies are rebuilt elsewhere, no acknowledged write lost, the node ends empty; undrain returns it', async () => {
    const r = await api.createCluster({ name: 'drain-me', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = r.body.cluster.id;
    const before = await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'd', KEYS, 1);
    const writer = new DurableWriter(appClient(conn.uri, conn.seeds), 'dw', 1).start();
    const nodeId = before.shards[1]!.instances.find((i) => i.role === 'primary')!.nodeId;
    const agent = stack.agents.find((a) => before.shards.flatMap((s) => s.instances).some((i) => i.nodeId === nodeId && i.address.startsWith(`${a.address}:`)))!;

    const drained = await api.call<{ draining: boolean }>('POST', `/v1/nodes/${nodeId}/drain`);
    expect(drained.status).toBe(200);
    expect(drained.body.draining).toBe(true);

    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = (await api.topology(id)).body;
      const c = (await api.getCluster(id)).body;
      const onNode = t.shards.flatMap((s) => s.instances).filter((i) => i.nodeId === nodeId);
      if (c.status.phase === 'ready' && onNode.length === 0 && redisPidsOn([agent.address]).length === 0
        && t.shards.every((s) => s.instances.length === 2 && s.instances.every((i) => i.health === 'healthy'))) break;
      if (Date.now() > deadline) throw new Error(`drain did not finish: ${c.status.phase}, ${onNode.length} instance(s) left on the node; ${JSON.stringify(c.status.conditions.filter((x) => x.status !== 'true'))}`);
      await new Promise((res) => setTimeout(res, 200));
    }
    await writer.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await countPresent(fresh, 'd', KEYS)).toBe(KEYS);
    expect(await writer.lost(fresh)).toEqual([]);
    const events = (await api.events(id, '?limit=100')).body.items;
    expect(events.filter((e) => e.type === 'failover').map((e) => e.type === 'failover' && e.cause), JSON.stringify(events.map((e) => e.message))).toContain('switchover');
    expect(events.filter((e) => e.type === 'replica-rebuilt').length).toBeGreaterThanOrEqual(1);

    // Drained nodes take no new instances; undrain returns the node to placement.
    expect((await api.nodes()).body.items.find((n) => n.id === nodeId)).toMatchObject({ draining: true, instances: [] });
    expect((await api.call<{ draining: boolean }>('POST', `/v1/nodes/${nodeId}/undrain`)).body.draining).toBe(false);
    expect((await api.call('POST', '/v1/nodes/00000000-0000-4000-8000-000000000000/drain')).status).toBe(404);
    app.disconnect();
    fresh.disconnect();
    writer['client'].disconnect();
  });
});
