/**
 * A crashed primary is never restarted on its own, even when nobody answers
 * its agent for a long time, and an engine found stopped when its agent
 * starts keeps a crash time its replica's link can be judged against. Both
 * on a 2x1 cluster with durability none, where Redis cannot fail over by
 * itself (two primaries are no majority): a primary restarted empty would
 * make its replica resync from nothing and wipe the shard.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '@strata/api';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, enginePid, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // Node loss is not under test here: on a loaded machine restarted agents can take longer than the 15 s default to report.
  ({ stack, api, cleanup } = await testStack('127.0.37', { nodes: 2, extraEnv: { STRATA_REBALANCE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '60000' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const primaryOf = (t: Topology, shard: number) => t.shards[shard]!.instances.find((i) => i.role === 'primary')!;
const replicaOf = (t: Topology, shard: number) => t.shards[shard]!.instances.find((i) => i.role === 'replica')!;
const running = (address: string) => { try { enginePid(address); return true; } catch { return false; } };

async function loaded(name: string) {
  const r = await api.createCluster({ name, shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'none' });
  expect(r.status).toBe(202);
  const id = r.body.cluster.id;
  await api.waitForPhase(id, 'ready');
  const uri = (await api.connection(id)).body.uri;
  const topology = await api.waitForHealthy(id);
  const app = appClient(uri);
  await loadKeys(app, 'k', KEYS, 1);
  app.disconnect();
  const writer = new DurableWriter(appClient(uri), 'w', 1).start();
  await sleep(300);
  return { id, uri, topology, writer };
}

/** After the fault: healthy, the victim back as a replica, every loaded and acknowledged key there, no data-lost event. */
async function nothingLost(id: string, uri: string, victimId: string, writer: DurableWriter, ackedBefore: number) {
  const after = await api.waitForHealthy(id, 90_000);
  const victim = after.shards.flatMap((s) => s.instances).find((i) => i.id === victimId)!;
  // Back, and as a replica (or as primary again once the rebalance moved it back, which needs it in sync first).
  expect(victim.health).toBe('healthy');
  await sleep(500);
  await writer.stop();
  writer['client'].disconnect();
  const fresh = appClient(uri);
  try {
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    expect(writer.acked.length).toBeGreaterThan(ackedBefore);
    expect(await writer.lost(fresh)).toEqual([]);
  } finally {
    fresh.disconnect();
  }
  expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
  console.log(`writer: ${writer.acked.length} acknowledged writes, ${writer.errors} errors, longest gap ${writer.longestGapMs} ms`);
}

describe('safe restarts on a cluster Redis cannot fail over by itself (2x1, durability none)', () => {
  it('the control plane down while a primary dies: its agent holds it (never restarts it on its own, empty and owning its slots), and the restarted control plane promotes the replica first', async () => {
    const { id, uri, topology, writer } = await loaded('held-no-cp');
    const victim = primaryOf(topology, 0);
    const replica = replicaOf(topology, 0);
    await stack.stopControlPlane('SIGKILL');
    process.kill(enginePid(victim.address), 'SIGKILL');
    const ackedAtKill = writer.acked.length;
    // Several of the agent's supervision rounds (100 ms) and status reports (1 s): it stays down.
    for (let waited = 0; waited < 6_000; waited += 1000) {
      await sleep(1000);
      expect(running(victim.address)).toBe(false);
    }
    await stack.startControlPlane();
    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 0, 60_000);
    expect(failover).toMatchObject({ cause: 'process-crash', oldPrimary: { instanceId: victim.id }, newPrimary: { instanceId: replica.id } });
    await api.waitForEvent(id, 'instance-restarted', (e) => e.instance.instanceId === victim.id);
    await nothingLost(id, uri, victim.id, writer, ackedAtKill);
    await api.deleteCluster(id);
    await api.waitForGone(id);
  }, 240_000);

  it('every agent down, then a primary dies, then the agents start: its crash time is when an agent last saw it running, so its in-sync replica is promoted', async () => {
    const { id, uri, topology, writer } = await loaded('agents-away');
    const victim = primaryOf(topology, 1);
    const replica = replicaOf(topology, 1);
    await Promise.all(stack.agents.map((_, i) => stack.stopAgent(i, 'SIGKILL')));
    await sleep(1000);
    process.kill(enginePid(victim.address), 'SIGKILL');
    const ackedAtKill = writer.acked.length;
    // Long enough that "crashed when the agent started" would put the replica's link down well before the crash (3 s slack);
    // short of the node-down timeout (60 s here), after which the copies would be rebuilt instead.
    await sleep(6000);
    expect(running(victim.address)).toBe(false);
    await Promise.all(stack.agents.map((_, i) => stack.startAgent(i)));
    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 1, 60_000);
    expect(failover).toMatchObject({ cause: 'process-crash', oldPrimary: { instanceId: victim.id }, newPrimary: { instanceId: replica.id } });
    await nothingLost(id, uri, victim.id, writer, ackedAtKill);
    await api.deleteCluster(id);
    await api.waitForGone(id);
  }, 240_000);

  it('a replica its agent restarts on its own is reported (instance-restarted); agents observe each engine over one long-lived connection', async () => {
    const r = await api.createCluster({ name: 'replica-crash', shards: 2, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForPhase(id, 'ready');
    const topology = await api.waitForHealthy(id);
    const replica = replicaOf(topology, 0);
    const primary = primaryOf(topology, 1);

    // One connection per instance: the engine's connection counter stays flat over several status reports and metric samples.
    const agentDir = stack.agents.find((a) => primary.address.startsWith(`${a.address}:`))!.dir;
    const rec = (JSON.parse(readFileSync(path.join(agentDir, 'instances.json'), 'utf8')) as { spec: { instanceId: string }; credentials: { internalUser: string; internalPassword: string } }[])
      .find((x) => x.spec.instanceId === primary.id)!;
    const [host, port] = primary.address.split(':');
    const admin = new Redis({ host, port: Number(port), username: rec.credentials.internalUser, password: rec.credentials.internalPassword });
    const received = async () => Number(/total_connections_received:(\d+)/.exec(String(await admin.info('stats')))![1]);
    const before = await received();
    await sleep(6000); // agents report and sample every second
    const after = await received();
    admin.disconnect();
    console.log(`connections received by ${primary.address} over 6 s: ${after - before}`);
    expect(after - before).toBeLessThanOrEqual(1);

    const pid = enginePid(replica.address);
    process.kill(pid, 'SIGKILL');
    const restarted = await api.waitForEvent(id, 'instance-restarted', (e) => e.instance.instanceId === replica.id);
    expect(restarted.reason).toMatch(/its agent restarts it/);
    await api.waitForHealthy(id);
    expect(enginePid(replica.address)).not.toBe(pid);
    expect((await api.events(id, '?limit=200')).body.items.filter((e) => e.type === 'instance-restarted')).toHaveLength(1);
    await api.deleteCluster(id);
    await api.waitForGone(id);
  });
});
