/**
 * Primaries killed (kill -9 of their redis-server) in the middle of a 3 -> 4
 * migration, with a client writing the whole time: a source primary, a
 * source primary followed at once by a cancel, and the new shard's primary.
 * The replica takes over, the change finishes (or ends cancelled), every
 * slot has exactly one owner and none is left open, and every key keeps its
 * last value acknowledged by a replica (WAIT 1). Small migration rounds keep
 * the move slow enough to catch. The new shard's primary is also killed
 * before it owns any slot while keys migrate into it (Redis does not fail
 * over a primary without slots: Strata promotes its replica).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterUpdateAccepted, MigrationPriority, Operation, Problem, Topology } from '@strata/api';
import type { Stack } from '@strata/local';
import { killHost, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, enginePid, loadKeys } from './helpers/workload';
import { LastValueLoad, clusterViews, slotReport, until } from './helpers/reshard-load';
import { RespConnection, keySlot } from '@strata/bench/loadgen';

let api: TestApi;
let stack: Stack;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // Removing instances waits 10 s (not 60) for a member that is down: the cancel case's dead source stays down.
  // 16 slots a round (not 128): slow enough that every kill lands mid-migration, fast enough that the rest takes seconds.
  ({ api, stack, cleanup } = await testStack('127.0.64', { nodes: 4, agentEnv: { STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND: '16' }, extraEnv: { STRATA_UPDATE_FORGET_WAIT_MS: '10000' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 20_000;

/** A 3x1 cluster holding KEYS keys, a client writing (counted once a replica has a write: Redis replicates asynchronously). */
async function loadedCluster(name: string, migrationPriority: MigrationPriority = 'balanced') {
  const r = await api.createCluster({ name, shards: 3, replicasPerShard: 1, memoryMbPerShard: 64, migrationPriority });
  const id = r.body.cluster.id;
  await api.waitForHealthy(id);
  const conn = (await api.connection(id)).body;
  const app = appClient(conn.uri, conn.seeds);
  await loadKeys(app, 'k', KEYS, 1);
  app.disconnect();
  const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4, 1).start();
  return { id, uri: conn.uri, auth: { username: conn.username, password: conn.password }, load, before: (await api.topology(id)).body };
}

/** PATCHes the shard count and returns once the migration is under way (less than half done). */
async function startChange(id: string, shards: number): Promise<string> {
  const up = await api.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${id}`, { shards });
  expect(up.status, JSON.stringify(up.body)).toBe(202);
  const opId = up.body.operation.id;
  await until('the migration to be under way', async () => {
    const o = (await api.operation(opId)).body as Operation;
    return o.migration && o.migration.slotsDone > 0 && o.migration.slotsDone < o.migration.slotsTotal * 0.5 ? o : undefined;
  });
  return opId;
}

const killPrimary = (t: Topology, shard: number) => {
  const victim = t.shards.find((s) => s.index === shard)!.instances.find((i) => i.role === 'primary')!;
  process.kill(enginePid(victim.address), 'SIGKILL');
  return { victim, killedAt: Date.now() };
};

/** Healthy with `shards` shards, every slot owned once and none open, every replica-acknowledged write there, the key count kept. */
async function expectWhole(c: Awaited<ReturnType<typeof loadedCluster>>, shards: number, keys = KEYS): Promise<void> {
  const healthy = await api.waitForHealthy(c.id, 90_000).catch(async (err) => {
    console.log(`cluster status when the wait ended: ${JSON.stringify((await api.getCluster(c.id)).body.status)}`);
    throw err;
  });
  expect(healthy.shards).toHaveLength(shards);
  const primaries = healthy.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
  const slots = await slotReport(primaries, c.auth);
  const views = slots.owned === 16384 && !slots.open.length ? '' : await clusterViews(healthy.shards.flatMap((s) => s.instances.map((i) => i.address)), c.auth);
  expect(slots, `primaries ${primaries.join(', ')}; each instance's view:\n${views}`).toEqual({ owned: 16384, open: [], assigned: 16384 });
  await c.load.stop();
  const fresh = appClient(c.uri, (await api.connection(c.id)).body.seeds);
  expect(await c.load.wrong(fresh)).toEqual([]);
  let total = 0;
  for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
  expect(total).toBe(keys);
  console.log(`load ${c.load.writes} writes, ${c.load.reads} reads, ${c.load.errors} errors ${c.load.errorSamples.join(' | ')}`);
  fresh.disconnect();
  c.load['client'].disconnect();
}

const summary = (o: Operation, killedAt: number) =>
  `operation ${o.state} ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${o.steps.map((s) => `${s.name}: ${s.detail ?? ''}`).join('; ')}`;

describe('resharding when a primary crashes', () => {
  it('kill -9 of a source primary mid-migration: its replica takes over, the migration finishes, one owner per slot, no acknowledged write lost', async () => {
    const c = await loadedCluster('reshard-crash');
    const opId = await startChange(c.id, 4);
    const { killedAt } = killPrimary(c.before, 1); // shard 1 gives slots to the new shard
    const done = await api.waitForOperation(opId, 150_000);
    console.log(summary(done, killedAt));
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    // The replica's promotion is on record (the victim may be primary again by now: Strata puts primaries back where planned).
    const failover = await api.waitForEvent(c.id, 'failover', (e) => e.shard === 1);
    expect(Date.parse(failover.at)).toBeGreaterThan(killedAt - 1000);
    await expectWhole(c, 4);
  }, 400_000);

  it('cancel right after a source primary is killed mid-migration: slots go back, one owner each, none open, no acknowledged write lost', async () => {
    const c = await loadedCluster('reshard-crash-cancel');
    const opId = await startChange(c.id, 4);
    const { killedAt } = killPrimary(c.before, 2);
    expect((await api.call<Operation>('POST', `/v1/operations/${opId}/cancel`)).status).toBe(200);
    const done = await api.waitForOperation(opId, 150_000);
    console.log(summary(done, killedAt));
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('cancelled');
    await expectWhole(c, 3);
  }, 400_000);

  it("kill -9 of the target primary mid-migration: the new shard's replica takes over and receives the rest, no acknowledged write lost", async () => {
    const c = await loadedCluster('reshard-target-crash');
    const opId = await startChange(c.id, 4);
    const { killedAt } = killPrimary((await api.topology(c.id)).body, 3);
    const done = await api.waitForOperation(opId, 150_000);
    console.log(summary(done, killedAt));
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    await expectWhole(c, 4);
  }, 400_000);

  it("the target's agent stalls mid-migration (its reports stop for 6 s), then the target primary dies as it resumes: held, its replica takes over, no acknowledged write lost", async () => {
    // Past the control plane's 5 s without a report the target's state is unknown. Nothing may start it then: an
    // engine restarted empty before its replica took over would still claim its slots, and the replica would resync
    // the emptiness (what a busy agent once caused: every key the new shard owned was lost).
    const c = await loadedCluster('reshard-stalled-agent');
    const opId = await startChange(c.id, 4);
    const victim = (await api.topology(c.id)).body.shards.find((s) => s.index === 3)!.instances.find((i) => i.role === 'primary')!;
    const agentPid = stack.agents.find((a) => a.address === victim.address.split(':')[0])!.proc!.child.pid!;
    process.kill(agentPid, 'SIGSTOP');
    let killedAt = 0;
    try {
      await new Promise((r) => setTimeout(r, 6500));
      process.kill(enginePid(victim.address), 'SIGKILL');
      killedAt = Date.now();
    } finally {
      process.kill(agentPid, 'SIGCONT');
    }
    const done = await api.waitForOperation(opId, 150_000);
    console.log(summary(done, killedAt));
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    // On a busy host the move may end before the kill (it runs on the sources' agents, not the stalled one): the
    // replica's takeover then comes after the operation. The whole cluster is checked once it happened.
    await until('the new shard\'s replica to take over from the killed primary', async () => {
      const shard = (await api.topology(c.id)).body.shards.find((s) => s.index === 3);
      return shard?.instances.some((i) => i.role === 'primary' && i.address !== victim.address && i.health === 'healthy') ? shard : undefined;
    });
    await expectWhole(c, 4);
  }, 400_000);

  it("kill -9 of the new shard's primary before it owns a slot, while keys migrate into it: its replica is promoted (Redis never fails over a primary without slots), no key and no acknowledged write lost", async () => {
    // gentle: one source at a time, one round in flight, so the new primary claims nothing while the first round's keys copy into it.
    const c = await loadedCluster('reshard-slotless-crash', 'gentle');
    // The first round of every source -> new shard move carries HEAVY keys (one slot each): the new primary holds
    // copied and handed-over keys for a while before it claims any slot.
    const dry = await api.updateCluster(c.id, { shards: 4 }, true);
    expect(dry.status).toBe(200);
    const firstSlots = dry.body.plan.slotMoves.map((m: { slots: { start: number }[] }) => m.slots[0]!.start);
    expect(firstSlots).toHaveLength(3);
    const HEAVY = 30_000;
    const loader = appClient(c.uri, (await api.connection(c.id)).body.seeds);
    for (const slot of firstSlots) {
      let t = 0;
      while (keySlot(`t${t}`) !== slot) t++;
      for (let start = 0; start < HEAVY; start += 1000) {
        const kv: string[] = [];
        for (let i = start; i < start + 1000; i++) kv.push(`{t${t}}:${i}`, `h${i}`);
        await loader.mset(...kv);
      }
    }
    await loader.quit();
    const up = await api.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${c.id}`, { shards: 4 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    const opId = up.body.operation.id;
    const target = await until('the new shard to have a primary', async () =>
      (await api.topology(c.id)).body.shards.find((s) => s.index === 3)?.instances.find((i) => i.role === 'primary'));
    const [host, port] = [target.address.slice(0, target.address.lastIndexOf(':')), Number(target.address.slice(target.address.lastIndexOf(':') + 1))];
    // The load generator's RESP client: its calls resolve (an Error when the connection closed), never reject,
    // so the kill leaves no pending command to reject unhandled.
    const direct = await until('the new primary to take connections', () => RespConnection.connect(host, port, c.auth, 1000));
    await until('keys to be migrating into the new primary', async () => Number(await direct.call(['DBSIZE'])) > 2000);
    const myself = String(await direct.call(['CLUSTER', 'NODES'])).split('\n').find((l) => l.includes('myself'))!;
    const { killedAt } = killPrimary((await api.topology(c.id)).body, 3);
    direct.close();
    // the case this test is about: no slot claimed yet (columns 9.. of CLUSTER NODES list slots, [..] marks are open slots)
    expect(myself.split(' ').slice(8).filter((x) => !x.startsWith('['))).toEqual([]);
    const done = await api.waitForOperation(opId, 150_000);
    console.log(summary(done, killedAt));
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    // A source removes keys only once the target's replica confirmed their copies (WAIT 1), and the keys still being
    // copied are still on their source: every key is there, the client's acknowledged writes too. (Without the
    // promotion every key moved into it so far was lost when its agent restarted it empty.)
    await expectWhole(c, 4, KEYS + 3 * HEAVY);
  }, 400_000);

  it('the host running the migration is lost mid-migration (its agent and engines killed together): the move goes on from a live node, one owner per slot, no acknowledged write lost', async () => {
    const c = await loadedCluster('reshard-runner-lost');
    // The migration runs on the agent of shard 0's primary.
    const runnerNodeId = c.before.shards.find((s) => s.index === 0)!.instances.find((i) => i.role === 'primary')!.nodeId;
    const runnerName = (await api.nodes()).body.items.find((n) => n.id === runnerNodeId)!.name;
    const index = stack.agents.findIndex((a) => a.name === runnerName);
    expect(index).toBeGreaterThanOrEqual(0);
    const opId = await startChange(c.id, 4);
    const onHost = (await api.topology(c.id)).body.shards.flatMap((s) => s.instances.filter((i) => i.nodeId === runnerNodeId).map((i) => `shard ${s.index} ${i.role}`));
    console.log(`killing ${runnerName}, which runs the migration and holds ${onHost.join(', ')}`);
    const killedAt = Date.now();
    await killHost(stack, index);
    try {
      const done = await api.waitForOperation(opId, 150_000);
      console.log(summary(done, killedAt));
      expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
      await api.waitForEvent(c.id, 'node-down', (e) => e.node.id === runnerNodeId);
      // The copies that were on the lost host are rebuilt on the live nodes once the change is done.
      await expectWhole(c, 4);
      const t = (await api.topology(c.id)).body;
      expect(t.shards.flatMap((s) => s.instances).some((i) => i.nodeId === runnerNodeId)).toBe(false);
    } finally {
      await stack.startAgent(index);
    }
  }, 400_000);
});
