/**
 * A host, not just its agent: when a node's agent and engines stop together,
 * the engines' cluster peers flag them (`fail?`) and the control plane
 * declares the node down at the confirmed timeout (4.5 s), long before the
 * node-down timeout (60 s here, so nothing else could). A host paused for
 * 3 s (SIGSTOP of its agent and every engine) is not declared down: no
 * node-down event, nothing rebuilt. The stack runs 3 nodes; a 1x1 cluster
 * puts its primary on one, its replica on another, and leaves the third free
 * for the rebuilt copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import type { Topology } from '@strata/api';
import { killHost, redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, DurableWriter, loadKeys } from './helpers/workload';
import { expectNothingLost } from './helpers/nothing-lost';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.126', { nodes: 3, extraEnv: { STRATA_NODE_DOWN_AFTER_MS: '60000' } }));
});
afterAll(async () => cleanup?.());

const replicaOf = (t: Topology) => t.shards[0]!.instances.find((i) => i.role === 'replica')!;

/** Every process of a node's host: its agent, its engines and its warm spares. */
function hostPids(index: number): number[] {
  const agent = stack.agents[index]!;
  return [agent.proc!.child.pid!, ...redisPidsOn([agent.address]), ...redisPidsOn([agent.address], 'spares')];
}

describe('a node whose host stops (agent and engines together)', () => {
  let id: string;
  let replicaNode: number;

  beforeAll(async () => {
    const created = await api.createCluster({ name: 'host-down', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32 });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    id = created.body.cluster.id;
    const t = await api.waitForHealthy(id, 60_000);
    const nodes = (await api.nodes()).body.items;
    replicaNode = stack.agents.findIndex((a) => nodes.find((n) => n.name === a.name)!.id === replicaOf(t).nodeId);
    expect(replicaNode).toBeGreaterThanOrEqual(0);
  });

  it('paused for 3 s: not declared down, nothing rebuilt, the cluster ready again with the same members', async () => {
    const before = await api.waitForHealthy(id, 30_000);
    const pids = hostPids(replicaNode);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    console.log(`host paused ${Date.now() - stoppedAt} ms`);
    // Time for a node-down and a rebuild to show, had the pause been taken for a loss.
    await new Promise((r) => setTimeout(r, 6000));
    const events = (await api.events(id, '?limit=200')).body.items;
    expect(events.filter((e) => e.type === 'node-down' || e.type === 'replica-rebuilt').map((e) => e.type)).toEqual([]);
    const after = await api.waitForHealthy(id, 30_000);
    expect(after.shards[0]!.instances.map((i) => i.id).sort()).toEqual(before.shards[0]!.instances.map((i) => i.id).sort());
    expect((await api.nodes()).body.items.every((n) => n.status === 'online')).toBe(true);
  });

  it('stopped for good with a writer running: declared down at the confirmed timeout (the node-down timeout is 60 s), its copy rebuilt elsewhere, nothing acknowledged lost', async () => {
    const t = await api.waitForHealthy(id, 30_000);
    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'k', 2000, 1);
    const writer = new DurableWriter(appClient(uri), 'w', 0).start();
    const lost = replicaOf(t);
    const node = (await api.nodes()).body.items.find((n) => n.name === stack.agents[replicaNode]!.name)!;
    const killedAt = Date.now();
    await killHost(stack, replicaNode);

    const down = await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id, 30_000);
    console.log(`node-down event ${Date.now() - killedAt} ms after the host stopped`);
    expect(down.instances.map((i) => i.instanceId)).toEqual([lost.id]);
    expect(down.message).toMatch(/peers cannot reach/);
    expect((await api.nodes()).body.items.find((n) => n.id === node.id)!.status).toBe('down');
    await api.waitForEvent(id, 'replica-rebuilt', (e) => e.lost.instanceId === lost.id, 60_000);
    const healed = await api.waitForHealthy(id, 60_000);
    const copies = healed.shards[0]!.instances;
    expect(copies).toHaveLength(2);
    expect(copies.some((i) => i.nodeId === node.id)).toBe(false);
    await expectNothingLost(writer, app);
  });
});
