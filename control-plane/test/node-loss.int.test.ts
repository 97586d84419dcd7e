/**
 * A node that stops reporting: what it last said stops counting (unknown,
 * never healthy), it turns down after the timeout with an event, every copy
 * it held moves off it (a primary whose engine still serves by a data-safe
 * switchover) so the cluster is ready again while the node is away, and its
 * return leaves nothing stale. Also across a control-plane restart: a node
 * that died while the control plane was away is not shown healthy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { killHost, redisPidsOn } from './helpers/test-stack';
import { appClient, countPresent, countPresentEventually, DurableWriter, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.24', { nodes: 3, extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '6000' } }));
});
afterAll(async () => cleanup?.());

const metricsToken = () => readFileSync(path.join(stack.dir, 'metrics-token'), 'utf8').trim();

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
  it('its instances turn unknown (never healthy), the node goes down with an event, its serving primary stays while its replica is rebuilt elsewhere, and its return leaves nothing stale', async () => {
    const r = await api.createCluster({ name: 'silent-node', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'k', 5000, 1);
    const writerClient = appClient(uri);
    const writer = new DurableWriter(writerClient, 'w', 1).start();

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

    // Only the agent died: its engines still answer, so Redis fails nothing over, and neither does Strata: the primary
    // there still serves (its replica on a live node is linked to it), so it stays primary; the control plane never
    // promotes while the old primary serves. The replica on the node is rebuilt elsewhere.
    const lost = topo.shards.flatMap((s) => s.instances).filter((i) => i.nodeId === node.id);
    const lostPrimary = lost.find((i) => i.role === 'primary')!;
    const lostReplica = lost.find((i) => i.role === 'replica')!;
    await api.waitForEvent(id, 'replica-rebuilt', (e) => e.lost.instanceId === lostReplica.id);
    const waitingMessage = await poll(async () => {
      const healing = (await api.getCluster(id)).body.status.conditions.find((c) => c.type === 'Healing');
      return healing?.message.includes('still serves') ? healing.message : undefined;
    }, 'the Healing condition says the silent node\'s primary still serves');
    expect(waitingMessage).toMatch(/stays primary/);
    expect((await api.events(id, '?limit=200')).body.items.filter((e) => e.type === 'failover' && e.oldPrimary.instanceId === lostPrimary.id)).toEqual([]);
    expect(await countPresent(app, 'k', 5000)).toBe(5000);

    // The node comes back: the agent adopts the primary engine it left running; the replaced replica's engine is
    // removed (no member knows it any more).
    await stack.startAgent(2);
    const replicaPort = Number(lostReplica.address.split(':')[1]);
    await poll(async () => (redisPidsOn([agent.address]).length === 1 ? true : undefined), 'the replaced replica\'s engine removed, the primary\'s kept');
    const healed = await api.waitForHealthy(id, 60_000);
    expect((await api.nodes()).body.items.find((n) => n.id === node.id)!.status).toBe('online');
    const members = healed.shards.flatMap((s) => s.instances);
    expect(members.some((i) => i.id === lostReplica.id)).toBe(false);
    expect(members.find((i) => i.id === lostPrimary.id)?.role).toBe('primary');
    expect(members.some((i) => i.nodeId === node.id && Number(i.address.split(':')[1]) === replicaPort)).toBe(false);
    for (const s of healed.shards) expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(2);
    await writer.stop();
    const fresh = appClient(uri, (await api.connection(id)).body.seeds);
    expect(await countPresent(fresh, 'k', 5000)).toBe(5000);
    // A client given only the URI, left to retry as ioredis does by default, wrote throughout.
    expect(writer.acked.length).toBeGreaterThan(100);
    expect(await writer.lost(fresh)).toEqual([]);
    fresh.disconnect();
    app.disconnect();
    writerClient.disconnect();
  });

  it('a node that died while the control plane was away is not shown healthy once it is back', async () => {
    const r = await api.createCluster({ name: 'dies-while-away', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'd', 2000, 1);
    expect((await api.getCluster(id)).body.status.phase).toBe('ready');

    const agent = stack.agents[1]!;
    const node = (await api.nodes()).body.items.find((n) => n.name === agent.name)!;
    await stack.stopControlPlane('SIGKILL');
    await stack.stopAgent(1, 'SIGKILL');
    for (const pid of redisPidsOn([agent.address])) process.kill(pid, 'SIGKILL');
    await stack.startControlPlane();

    // The stored "ready, 6 of 6 running" does not stand: within the first-report grace the
    // status says the node is silent and its instances unknown (before the rebuild replaces them).
    const seen = await poll(async () => {
      const c = (await api.getCluster(id)).body;
      const reporting = c.status.conditions.find((x) => x.type === 'NodesReporting');
      return c.status.phase === 'degraded' && reporting?.status === 'false' && reporting.message.includes(agent.name) ? c : undefined;
    }, 'cluster degraded with the dead node named as not reporting', 20_000);
    expect(seen.status.conditions.find((x) => x.type === 'InstancesRunning')!.message).toMatch(/unknown/);

    // And then it heals as any node loss does.
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id);
    const healed = await api.waitForHealthy(id, 90_000);
    for (const s of healed.shards) expect(s.instances.some((i) => i.nodeId === node.id)).toBe(false);
    expect(await countPresent(appClient(uri, (await api.connection(id)).body.seeds), 'd', 2000)).toBe(2000);
    app.disconnect();
    await stack.startAgent(1);
  });

  it('with no node left to rebuild on, the cluster says so and waits; the node returning heals it', async () => {
    await poll(async () => ((await api.nodes()).body.items.every((n) => n.status === 'online') ? true : undefined), 'every node online');
    // Alone on the nodes, so the reconcile passes counted below are this cluster's.
    for (const c of (await api.listClusters()).body.items) await api.deleteCluster(c.id);
    for (const c of (await api.listClusters()).body.items) await api.waitForGone(c.id);
    // One shard with two replicas: a copy on each of the 3 nodes, so a lost copy has nowhere to go.
    const r = await api.createCluster({ name: 'no-room', shards: 1, replicasPerShard: 2, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const uri = (await api.connection(id)).body.uri;
    const app = appClient(uri);
    await loadKeys(app, 'n', 2000, 2);
    app.disconnect();

    const agent = stack.agents[0]!;
    const node = (await api.nodes()).body.items.find((n) => n.name === agent.name)!;
    await stack.stopAgent(0, 'SIGKILL');
    for (const pid of redisPidsOn([agent.address])) process.kill(pid, 'SIGKILL');
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id);

    const waiting = await poll(async () => {
      const c = (await api.getCluster(id)).body;
      const healing = c.status.conditions.find((x) => x.type === 'Healing');
      return c.status.phase === 'degraded' && healing?.message.includes('cannot rebuild') ? { c, healing } : undefined;
    }, 'the Healing condition says there is no room to rebuild');
    expect(waiting.healing.message).toMatch(/every online node already holds a copy/);
    // Waiting is not a busy loop: blocked passes come from the 2 s sweep, not a worker requeued every 250 ms.
    const requeued = async () => Number((await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken()}` } })).text())
      .match(/strata_reconcile_passes_total\{outcome="requeued"\} (\d+)/)?.[1] ?? 0);
    const before = await requeued();
    await new Promise((res) => setTimeout(res, 4000));
    expect(await requeued() - before).toBeLessThan(6);
    expect((await api.getCluster(id)).body.status.conditions.find((x) => x.type === 'Healing')?.message).toMatch(/cannot rebuild/);
    // Nothing was placed anywhere; the keys are still served by the two copies left.
    const t = (await api.topology(id)).body;
    expect(t.shards[0]!.instances).toHaveLength(3);
    expect((await api.events(id, '?limit=100')).body.items.some((e) => e.type === 'replica-rebuilt')).toBe(false);
    // Redis could not elect a new primary (one shard: no majority of primaries left); Strata's takeover did.
    expect((await api.waitForEvent(id, 'failover')).newPrimary.nodeName).not.toBe(agent.name);
    const during = appClient(uri);
    expect(await countPresentEventually(during, 'n', 2000, 30_000)).toBe(2000);
    during.disconnect();

    // The node returns: its copy is started again and rejoins; the cluster is whole.
    await stack.startAgent(0);
    const healed = await api.waitForHealthy(id, 90_000);
    expect(new Set(healed.shards[0]!.instances.map((i) => i.nodeId)).size).toBe(3);
    const after = appClient(uri);
    expect(await countPresentEventually(after, 'n', 2000, 30_000)).toBe(2000);
    after.disconnect();
  }, 300_000);

  it('lost while a cluster is being created: the create fails naming it, the delete does not wait for it, a new create succeeds meanwhile, and its return leaves no engine of the deleted cluster', async () => {
    await poll(async () => ((await api.nodes()).body.items.every((n) => n.status === 'online') ? true : undefined), 'every node online');
    for (const c of (await api.listClusters()).body.items) await api.deleteCluster(c.id);
    for (const c of (await api.listClusters()).body.items) await api.waitForGone(c.id);
    // A copy on each of the 3 nodes, so the lost node holds one whichever it is.
    const r = await api.createCluster({ name: 'lost-in-create', shards: 1, replicasPerShard: 2, memoryMbPerShard: 32 });
    expect(r.status).toBe(202);
    const id = r.body.cluster.id;
    const agent = stack.agents[2]!;
    const node = (await api.nodes()).body.items.find((n) => n.name === agent.name)!;
    // Its engine started (its agent keeps a record of it and starts it again when it comes back), the cluster not ready.
    await poll(async () => (redisPidsOn([agent.address]).length ? true : undefined), 'the engine on the node to lose started', 30_000);
    expect((await api.getCluster(id)).body.status.phase).toBe('provisioning');
    const killedAt = Date.now();
    await killHost(stack, 2);

    const op = await api.waitForOperation(r.body.operation.id, 60_000);
    console.log(`create failed ${Date.now() - killedAt} ms after the host stopped (node-down timeout 6 s): ${op.error?.message}`);
    expect(op.state).toBe('failed');
    expect(op.error?.code).toBe('node_down');
    expect(op.error?.message).toContain(`node ${agent.name} went down while the cluster was being created`);
    expect(op.error?.message).toMatch(/Delete this cluster .* and create it again/);
    const failed = (await api.getCluster(id)).body;
    expect(failed.status.phase).toBe('failed');
    expect(failed.status.conditions[0]?.message).toContain(agent.name);
    expect((await api.nodes()).body.items.find((n) => n.id === node.id)!.status).toBe('down');

    // The node is still down: the delete finishes without it.
    const del = await api.deleteCluster(id);
    expect(del.status).toBe(202);
    await api.waitForGone(id, 30_000);
    const deleteOp = await api.waitForOperation(del.body.operation.id, 5_000);
    expect(deleteOp.state).toBe('succeeded');
    expect(deleteOp.steps.find((s) => s.name === 'stop-instances')?.detail).toContain(`on down node ${agent.name} removed when it reports again`);
    // The live nodes kept nothing of it.
    expect(redisPidsOn([stack.agents[0]!.address, stack.agents[1]!.address])).toEqual([]);

    // A new create meanwhile is placed on the live nodes only, and is ready.
    const again = await api.createCluster({ name: 'lost-in-create', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32 });
    expect(again.status).toBe(202);
    const healthy = await api.waitForHealthy(again.body.cluster.id, 60_000);
    expect(healthy.shards[0]!.instances.some((i) => i.nodeId === node.id)).toBe(false);

    // The node returns: whatever it ran of the deleted cluster is removed, and the new cluster is untouched.
    await stack.startAgent(2);
    await poll(async () => ((await api.nodes()).body.items.find((n) => n.id === node.id)!.status === 'online' ? true : undefined), 'the lost node online again');
    await poll(async () => (redisPidsOn([agent.address]).length === 0 ? true : undefined), 'no engine of the deleted cluster left on the returned node', 30_000);
    // Nor does its agent keep a record of it (it would start it again on its next start).
    const records = path.join(agent.dir, 'instances.json');
    await poll(async () => (existsSync(records) && readFileSync(records, 'utf8').includes(id) ? undefined : true), 'the deleted cluster gone from the agent\'s records');
    await api.waitForHealthy(again.body.cluster.id, 30_000);
    await api.deleteCluster(again.body.cluster.id);
    await api.waitForGone(again.body.cluster.id);
  }, 180_000);
});
