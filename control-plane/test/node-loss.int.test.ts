/**
 * A node that stops reporting: what it last said stops counting (unknown,
 * never healthy), it turns down after the timeout with an event, and it
 * comes back when its agent does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.24', { nodes: 3, extraEnv: { STRATA_NODE_DOWN_AFTER_MS: '4000' } }));
});
afterAll(async () => cleanup?.());

async function poll<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a node whose agent goes silent', () => {
  it('its instances turn unknown (never healthy), the node goes down with an event, and all is well when it returns', async () => {
    const r = await api.createCluster({ name: 'silent-node', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'k', 5000, 1);

    const agent = stack.agents[2]!;
    const node = (await api.nodes()).body.items.find((n) => n.name === agent.name)!;
    await stack.stopAgent(2, 'SIGKILL');

    // Within a few seconds: unknown, not healthy; the cluster says which node is silent.
    const topo = await poll(async () => {
      const t = (await api.topology(id)).body;
      const mine = t.shards.flatMap((s) => s.instances).filter((i) => i.nodeId === node.id);
      return mine.length && mine.every((i) => i.health === 'unknown') ? t : undefined;
    }, 'instances of the silent node shown unknown');
    expect(topo.shards.flatMap((s) => s.instances).filter((i) => i.nodeId !== node.id).every((i) => i.health === 'healthy')).toBe(true);
    const degraded = await api.waitForPhase(id, 'degraded');
    const reporting = degraded.status.conditions.find((c) => c.type === 'NodesReporting')!;
    expect(reporting.status).toBe('false');
    expect(reporting.message).toContain(agent.name);
    expect(degraded.status.conditions.find((c) => c.type === 'InstancesRunning')!.message).toMatch(/4 of 6 instances running; 2 unknown/);

    // Past the node-down timeout: down, and the cluster's events say so.
    await poll(async () => ((await api.nodes()).body.items.find((n) => n.id === node.id)!.status === 'down' ? true : undefined), 'node down');
    const event = await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id);
    expect(event.instances).toHaveLength(2);

    // The engines kept serving all along (only the agent died); the node comes back with its agent.
    expect(await countPresent(app, 'k', 5000)).toBe(5000);
    await stack.startAgent(2);
    await api.waitForHealthy(id);
    expect((await api.nodes()).body.items.find((n) => n.id === node.id)!.status).toBe('online');
    app.disconnect();
  });
});
