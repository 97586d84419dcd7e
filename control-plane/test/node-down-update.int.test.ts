/**
 * A replica count lowered while a node is away (on the real stack: 3 nodes,
 * a 1x2 cluster with a copy on each, 127.0.128.x). The node holding one
 * replica stops with its engines; it is declared down, and its copy cannot be
 * rebuilt (the other two nodes hold the shard's other copies). Then
 * `replicasPerShard` 2 -> 1: the change keeps both live copies (the copy on
 * the down node is not counted), and healing drops the down node's copy as
 * one the shard does not need, rather than rebuilding it. A writer runs
 * throughout (WAIT 1): nothing it had acknowledged is lost. And a node
 * that is only away (its agent stopped while its engines serve): the change
 * removes no copy meanwhile, and once the agent is back healing removes the
 * copy too many.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import { killHost, redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, DurableWriter, loadKeys } from './helpers/workload';
import { expectNothingLost } from './helpers/nothing-lost';
import { loadedOneShard } from './helpers/loaded-cluster';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.128', { nodes: 3, extraEnv: { STRATA_NODE_DOWN_AFTER_MS: '60000' } }));
});
afterAll(async () => cleanup?.());

describe('lowering the replica count while a node is away', () => {
  it('away but not down (its agent stopped, its engines serving): no copy removed meanwhile; once back, the copy too many goes, nothing lost', async () => {
    const { id, app, writer, replicaNode: node } = await loadedOneShard(api, { name: 'away-update', replicasPerShard: 2, memoryMbPerShard: 32 });
    const agent = stack.agents.findIndex((a) => a.name === node.name);
    const pid = stack.agents[agent]!.proc!.child.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      const deadline = Date.now() + 20_000;
      while ((await api.nodes()).body.items.find((n) => n.id === node.id)!.status !== 'offline') {
        if (Date.now() > deadline) throw new Error(`${node.name} did not go offline`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const changed = await api.updateCluster(id, { replicasPerShard: 1 });
      expect(changed.status, JSON.stringify(changed.body)).toBe(202);
      // The copy on the away node does not count, so the two live copies are exactly what the spec asks for.
      expect(changed.body.plan.removeInstances).toEqual([]);
      const op = await api.waitForOperation(changed.body.operation.id, 60_000);
      expect(op.state, JSON.stringify(op)).toBe('succeeded');
    } finally {
      process.kill(pid, 'SIGCONT');
    }

    // Back: three copies for a spec of two; healing removes one once the others are in sync.
    const deadline = Date.now() + 30_000;
    let members = (await api.topology(id)).body.shards[0]!.instances;
    while (members.length > 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      members = (await api.topology(id)).body.shards[0]!.instances;
    }
    expect(members).toHaveLength(2);
    const after = await api.waitForHealthy(id, 60_000);
    expect(after.shards[0]!.instances.filter((i) => i.role === 'primary')).toHaveLength(1);
    expect(new Set(after.shards[0]!.instances.map((i) => i.nodeId)).size).toBe(2);

    await expectNothingLost(writer, app);
    // Gone before the next test kills a node: an engine its peers forgot but its node still runs would hold back
    // the early (confirmed) node-down until the full timeout.
    expect((await api.deleteCluster(id)).status).toBe(202);
    const gone = Date.now() + 60_000;
    while (redisPidsOn(stack.agents.map((a) => a.address)).length > 0) {
      if (Date.now() > gone) throw new Error('the first cluster\'s engines are still running');
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it('keeps every live copy, drops the copy on the down node without a rebuild, and loses no acknowledged write', async () => {
    const created = await api.createCluster({ name: 'down-update', shards: 1, replicasPerShard: 2, memoryMbPerShard: 32 });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.cluster.id;
    const before = await api.waitForHealthy(id, 60_000);
    const copies = before.shards[0]!.instances;
    expect(copies).toHaveLength(3);
    expect(new Set(copies.map((i) => i.nodeId)).size).toBe(3);

    // With every node online the change would remove one replica; the node that goes down holds the other one,
    // so a planner counting the down node's copy would remove a live replica.
    const dry = await api.updateCluster(id, { replicasPerShard: 1 }, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const plannedOut = dry.body.plan.removeInstances.map((r) => r.instanceId);
    expect(plannedOut).toHaveLength(1);
    const victim = copies.find((i) => i.role === 'replica' && !plannedOut.includes(i.id))!;
    const live = copies.filter((i) => i.id !== victim.id).map((i) => i.id).sort();

    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'k', 2000, 1);
    const writer = new DurableWriter(appClient(uri), 'w', 1).start();

    const nodes = (await api.nodes()).body.items;
    const node = nodes.find((n) => n.id === victim.nodeId)!;
    const index = stack.agents.findIndex((a) => a.name === node.name);
    await killHost(stack, index);
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id, 30_000);

    const changed = await api.updateCluster(id, { replicasPerShard: 1 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(202);
    expect(changed.body.plan.removeInstances).toEqual([]);
    const op = await api.waitForOperation(changed.body.operation.id, 60_000);
    expect(op.state, JSON.stringify(op)).toBe('succeeded');

    // Healing drops the copy on the down node: the shard has its two copies on live nodes.
    const deadline = Date.now() + 30_000;
    let members = (await api.topology(id)).body.shards[0]!.instances.map((i) => i.id).sort();
    while (members.length > 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      members = (await api.topology(id)).body.shards[0]!.instances.map((i) => i.id).sort();
    }
    expect(members).toEqual(live);
    const after = await api.waitForHealthy(id, 60_000);
    expect(after.shards[0]!.instances.map((i) => i.id).sort()).toEqual(live);
    const events = (await api.events(id, '?limit=200')).body.items;
    expect(events.filter((e) => e.type === 'replica-rebuilt')).toEqual([]);

    await expectNothingLost(writer, app);
  });
});
