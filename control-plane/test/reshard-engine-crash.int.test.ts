/**
 * A source primary's redis-server, then a target primary's, killed (kill -9)
 * in the middle of a 3 -> 4 migration, with a client writing the whole time:
 * the replica takes over, the migration finishes from (or to) the new
 * primary, every slot has exactly one owner and none is left open, and every
 * key keeps its last value acknowledged by a replica (WAIT 1). Small migration rounds keep the move slow enough to
 * catch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterUpdateAccepted, Operation, Problem } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, enginePid, loadKeys } from './helpers/workload';
import { LastValueLoad, slotReport } from './helpers/reshard-load';

let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.64', { nodes: 4, agentEnv: { STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND: '4' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 20_000;
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

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

describe('resharding when a primary crashes', () => {
  it('kill -9 of a source primary mid-migration: its replica takes over, the migration finishes, one owner per slot, no acknowledged write lost', async () => {
    const r = await api.createCluster({ name: 'reshard-crash', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const auth = { username: conn.username, password: conn.password };
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    // Writes count once a replica has them (WAIT 1): Redis replicates asynchronously, so a write only the killed primary had may be gone.
    const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4, 1).start();
    const before = (await api.topology(id)).body;

    const opId = await startChange(id, 4);
    // Shard 1's primary gives slots to the new shard: kill it while it does.
    const victim = before.shards[1]!.instances.find((i) => i.role === 'primary')!;
    process.kill(enginePid(victim.address), 'SIGKILL');
    const killedAt = Date.now();

    const done = await api.waitForOperation(opId, 150_000);
    console.log(`operation ${done.state} ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${done.steps.map((s) => `${s.name}: ${s.detail ?? ''}`).join('; ')}`);
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    const healthy = await api.waitForHealthy(id, 120_000);
    expect(healthy.shards).toHaveLength(4);
    // The replica's promotion is on record (the victim may be primary again by now: Strata puts primaries back where planned).
    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 1);
    expect(Date.parse(failover.at)).toBeGreaterThan(killedAt - 1000);
    const primaries = healthy.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
    expect(await slotReport(primaries, auth)).toEqual({ owned: 16384, open: [], assigned: 16384 });

    await load.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    let total = 0;
    for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
    expect(total).toBe(KEYS);
    console.log(`crash: load ${load.writes} writes, ${load.reads} reads, ${load.errors} errors ${load.errorSamples.join(' | ')}`);
    app.disconnect();
    fresh.disconnect();
    load['client'].disconnect();
  }, 400_000);

  it('cancel right after a source primary is killed mid-migration: slots go back, one owner each, none open, no acknowledged write lost', async () => {
    const r = await api.createCluster({ name: 'reshard-crash-cancel', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const auth = { username: conn.username, password: conn.password };
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4, 1).start();
    const before = (await api.topology(id)).body;

    const opId = await startChange(id, 4);
    const victim = before.shards[2]!.instances.find((i) => i.role === 'primary')!;
    process.kill(enginePid(victim.address), 'SIGKILL');
    const cancelled = await api.call<Operation>('POST', `/v1/operations/${opId}/cancel`);
    expect(cancelled.status).toBe(200);

    const done = await api.waitForOperation(opId, 150_000);
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('cancelled');
    const healthy = await api.waitForHealthy(id, 90_000).catch(async (err) => {
      console.log(`cluster status when the wait ended: ${JSON.stringify((await api.getCluster(id)).body.status)}`);
      throw err;
    });
    expect(healthy.shards).toHaveLength(3);
    const primaries = healthy.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
    expect(await slotReport(primaries, auth)).toEqual({ owned: 16384, open: [], assigned: 16384 });

    await load.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    let total = 0;
    for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
    expect(total).toBe(KEYS);
    app.disconnect();
    fresh.disconnect();
    load['client'].disconnect();
  }, 400_000);

  it('kill -9 of the target primary mid-migration: the new shard\'s replica takes over and receives the rest, no acknowledged write lost', async () => {
    const r = await api.createCluster({ name: 'reshard-target-crash', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const auth = { username: conn.username, password: conn.password };
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4, 1).start();

    const opId = await startChange(id, 4);
    const target = (await api.topology(id)).body.shards.find((s) => s.index === 3)!.instances.find((i) => i.role === 'primary')!;
    process.kill(enginePid(target.address), 'SIGKILL');
    const killedAt = Date.now();

    const done = await api.waitForOperation(opId, 150_000);
    console.log(`operation ${done.state} ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${done.steps.map((s) => `${s.name}: ${s.detail ?? ''}`).join('; ')}`);
    expect(done.state, JSON.stringify(done.error ?? done.steps)).toBe('succeeded');
    const healthy = await api.waitForHealthy(id, 120_000);
    expect(healthy.shards).toHaveLength(4);
    const primaries = healthy.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
    expect(await slotReport(primaries, auth)).toEqual({ owned: 16384, open: [], assigned: 16384 });

    await load.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    let total = 0;
    for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
    expect(total).toBe(KEYS);
    console.log(`target crash: load ${load.writes} writes, ${load.reads} reads, ${load.errors} errors ${load.errorSamples.join(' | ')}`);
    app.disconnect();
    fresh.disconnect();
    load['client'].disconnect();
  }, 400_000);
});
