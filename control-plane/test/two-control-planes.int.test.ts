/**
 * Two control planes share one PostgreSQL; agents know both (STRATA_URL lists
 * them). kill -9 of the control plane holding the cluster's lease mid-create
 * and mid-reshard (3 -> 4 shards, keys moving, a client writing with WAIT 1),
 * then kill -9 of the other one while a primary fails over: each time the
 * survivor takes the lease over, the operation completes through its API,
 * the cluster ends ready, every slot has one owner, no acknowledged write is
 * lost and no operation task was handed out twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ClusterUpdateAccepted, Operation, Problem } from '@strata/api';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { appClient, enginePid, loadKeys } from './helpers/workload';
import { settledPrimaries } from './helpers/redis-client';
import { LastValueLoad, slotReport, until } from './helpers/reshard-load';

let stack: Stack;
let cleanup: () => Promise<void>;
let db: pg.Pool;
/** One API client per control plane. */
let apis: TestApi[];

beforeAll(async () => {
  ({ stack, cleanup } = await testStack('127.0.74', {
    nodes: 4, controlPlanes: 2,
    // A dead control plane's leases end after 2 s (not 5): the survivor takes its clusters over sooner.
    extraEnv: { STRATA_RECONCILE_LEASE_MS: '2000' },
    // Small migration rounds keep the reshard slow enough to catch under way.
    agentEnv: { STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND: '4' },
  }));
  apis = stack.controlPlanes.map((c) => new TestApi(c.url, stack.adminToken));
  db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
}, 120_000);
afterAll(async () => {
  await db?.end();
  await cleanup?.();
});

const KEYS = 5000;
let clusterId = '';
let uri = '';
let auth = { username: '', password: '' };
let load: LastValueLoad;
/** The control plane that survived the reshard's kill: the last test kills it. */
let survivorIndex = 1;

/** Which control plane holds the cluster's lease (its pid is in lease_owner), waiting up to `ms` for one to. */
async function leaseHolder(ms = 5000): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const owner: string | null = (await db.query('SELECT lease_owner FROM clusters WHERE id = $1 AND lease_until > now()', [clusterId])).rows[0]?.lease_owner ?? null;
    const pid = owner ? Number(owner.split('-')[1]) : NaN;
    const i = stack.controlPlanes.findIndex((c) => c.proc?.child.pid === pid);
    if (i >= 0) return i;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function kill(i: number): Promise<number> {
  const killedAt = Date.now();
  await stack.stopControlPlane('SIGKILL', i);
  return killedAt;
}

/** Operation tasks handed out more than once for the same act (dedupe key) and succeeded each time: duplicate actions. */
async function duplicateTasks(): Promise<string[]> {
  const r = await db.query(
    `SELECT operation_id, dedupe_key, count(*) AS n FROM tasks WHERE cluster_id = $1 AND operation_id IS NOT NULL AND state = 'succeeded'
      GROUP BY operation_id, dedupe_key HAVING count(*) > 1`, [clusterId]);
  return r.rows.map((row) => `${row.dedupe_key} x${row.n}`);
}

/** Ready (not degraded) through `api`, every slot owned once and none open, no duplicate task. */
async function expectWhole(api: TestApi, shards: number): Promise<void> {
  const healthy = await api.waitForHealthy(clusterId, 90_000);
  expect(healthy.shards).toHaveLength(shards);
  expect((await api.getCluster(clusterId)).body.status.phase).toBe('ready');
  const primaries = healthy.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
  expect(await slotReport(primaries, auth)).toEqual({ owned: 16384, open: [], assigned: 16384 });
  expect(await duplicateTasks()).toEqual([]);
}

describe('two control planes, kill -9 of either', () => {
  it('mid-create: the lease holder dies, the other takes the create over and the cluster becomes ready', async () => {
    const r = await apis[0]!.createCluster({ name: 'twocp', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    clusterId = r.body.cluster.id;
    const opId = r.body.operation.id;
    await until('the create to start instances', async () =>
      (await apis[0]!.operation(opId)).body.steps.some((s) => s.name === 'start-instances' && s.state !== 'pending'), 30_000);
    const holder = await leaseHolder();
    expect(holder, 'a control plane leases the cluster while it is created').toBeDefined();
    const killedAt = await kill(holder!);
    const survivor = apis[1 - holder!]!;
    const op = await survivor.waitForOperation(opId, 90_000);
    expect(op.state, JSON.stringify(op.error ?? op.steps)).toBe('succeeded');
    console.log(`create: control plane ${holder! + 1} killed; done by the other ${Math.round((Date.now() - killedAt) / 100) / 10} s later`);
    const conn = (await survivor.connection(clusterId)).body;
    ({ uri } = conn);
    auth = { username: conn.username, password: conn.password };
    await expectWhole(survivor, 3);
    await stack.startControlPlane({}, holder!);
  }, 180_000);

  it('mid-reshard (3 -> 4 shards) with a client writing: the lease holder dies, the migration finishes, no acknowledged write lost', async () => {
    const conn = (await apis[0]!.connection(clusterId)).body;
    const loader = appClient(conn.uri, conn.seeds);
    await loadKeys(loader, 'k', KEYS, 1);
    loader.disconnect();
    load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4, 1).start();
    const up = await apis[0]!.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${clusterId}`, { shards: 4 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    const opId = up.body.operation.id;
    await until('the migration to be under way', async () => {
      const o = (await apis[0]!.operation(opId)).body as Operation;
      return o.migration && o.migration.slotsDone > 0 && o.migration.slotsDone < o.migration.slotsTotal * 0.5 ? o : undefined;
    });
    const holder = await leaseHolder();
    expect(holder, 'a control plane leases the cluster while it migrates').toBeDefined();
    const killedAt = await kill(holder!);
    const survivor = apis[1 - holder!]!;
    const op = await survivor.waitForOperation(opId, 150_000);
    expect(op.state, JSON.stringify(op.error ?? op.steps)).toBe('succeeded');
    console.log(`reshard: control plane ${holder! + 1} killed; done by the other ${Math.round((Date.now() - killedAt) / 100) / 10} s later`);
    await expectWhole(survivor, 4);
    await stack.startControlPlane({}, holder!);
    // The next kill is of the other one: remember who survived.
    survivorIndex = 1 - holder!;
  }, 240_000);

  it('the other control plane dies during a primary failover: the replica takes over, the cluster ends ready, no acknowledged write lost', async () => {
    const api = apis[1 - survivorIndex]!;
    const t = (await api.topology(clusterId)).body;
    const victim = t.shards[0]!.instances.find((i) => i.role === 'primary')!;
    const crashedAt = Date.now();
    process.kill(enginePid(victim.address), 'SIGKILL');
    // The failover is under way (the agent saw its engine exit): the control plane that survived so far dies now.
    await new Promise((r) => setTimeout(r, 200));
    const holder = await leaseHolder(0);
    await kill(survivorIndex);
    console.log(`failover: control plane ${survivorIndex + 1} killed (lease held by ${holder === undefined ? 'none' : `control plane ${holder + 1}`})`);
    const failover = await api.waitForEvent(clusterId, 'failover', (e) => e.shard === 0, 60_000);
    expect(Date.parse(failover.at)).toBeGreaterThan(crashedAt - 1000);
    await expectWhole(api, 4);
    await load.stop();
    const fresh = appClient(uri, (await api.connection(clusterId)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    // The API's primaries as they are now (after the failover, a switchover may move shard 0's primary back meanwhile).
    await settledPrimaries(fresh, () => api.primaryAddresses(clusterId));
    let total = 0;
    for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
    expect(total).toBe(KEYS);
    console.log(`load: ${load.writes} writes, ${load.reads} reads, ${load.errors} errors ${load.errorSamples.join(' | ')}`);
    fresh.disconnect();
    load['client'].disconnect();
  }, 180_000);
});
