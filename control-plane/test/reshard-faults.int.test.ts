/**
 * Resharding that is paused, resumed and cancelled, and that survives a
 * control-plane kill -9 and an agent restart mid-migration: after each,
 * every slot has exactly one owner and none is left open, and the client
 * that wrote the whole time finds every key with its last acknowledged value.
 * Small migration rounds (2 slots) keep the migration slow enough to catch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import type { ClusterUpdateAccepted, Operation, Problem } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, loadKeys } from './helpers/workload';
import { LastValueLoad, slotReport, until } from './helpers/reshard-load';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.61', { nodes: 4, agentEnv: { STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND: '2' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 20_000;
const t0 = Date.now();
const log = (m: string) => console.log(`[${Date.now() - t0} ms] ${m}`);
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

const op = async (id: string) => (await api.operation(id)).body as Operation;
const midMigration = (id: string) => until('the migration to be under way', async () => {
  const o = await op(id);
  return o.migration && o.migration.slotsDone > 0 && o.migration.slotsDone < o.migration.slotsTotal ? o : undefined;
});

describe('resharding with interruptions', () => {
  it('pause, resume and cancel; control-plane kill -9 and agent restart mid-migration: one owner per slot, none open, no acknowledged write lost', async () => {
    const r = await api.createCluster({ name: 'reshard-faults', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const auth = { username: conn.username, password: conn.password };
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS, 4).start();
    const primaries = async () => (await api.topology(id)).body.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
    const consistent = async () => expect(await slotReport(await primaries(), auth)).toEqual({ owned: 16384, open: [], assigned: 16384 });

    // Pause: the round in flight closes, every slot has one owner; resume continues; cancel moves slots back.
    const up = await api.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${id}`, { shards: 4 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    const opId = up.body.operation.id;
    await midMigration(opId);
    log('paused asked');
    const paused = await api.call<Operation>('POST', `/v1/operations/${opId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.paused).toBe(true);
    const atPause = await until('the migration to stop', async () => {
      const o = await op(opId);
      return o.steps.find((s) => s.name === 'migrate-slots')?.detail?.startsWith('paused') ? o : undefined;
    });
    log('pause consistent');
    await consistent();
    await sleep(1500);
    expect((await op(opId)).migration!.slotsDone).toBe(atPause.migration!.slotsDone);
    expect((await api.call<Operation>('POST', `/v1/operations/${opId}/resume`)).body.paused).toBe(false);
    await until('the migration to move on', async () => ((await op(opId)).migration?.slotsDone ?? 0) > atPause.migration!.slotsDone);
    // Keys moved count the run before the pause too: the progress never goes back.
    expect((await op(opId)).migration!.keysMoved).toBeGreaterThanOrEqual(atPause.migration!.keysMoved);
    log('cancel asking');
    const cancelled = await api.call<Operation>('POST', `/v1/operations/${opId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancelRequested).toBe(true);
    const endCancel = await api.waitForOperation(opId, 120_000);
    expect(endCancel.state, JSON.stringify(endCancel)).toBe('cancelled');
    expect(endCancel.steps.map((s) => s.name)).toContain('rollback-migrate');
    log('cancelled');
    const back = await api.waitForHealthy(id);
    expect(back.shards).toHaveLength(3);
    expect(back.shards.flatMap((s) => s.instances)).toHaveLength(6);
    expect((await api.getCluster(id)).body.spec.shards).toBe(3);
    await consistent();
    expect((await api.call<Problem>('POST', `/v1/operations/${opId}/pause`)).status).toBe(409);

    // Control plane kill -9 mid-migration: the new process resumes and finishes.
    const up2 = await api.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${id}`, { shards: 4 });
    expect(up2.status, JSON.stringify(up2.body)).toBe(202);
    await midMigration(up2.body.operation.id);
    log('killing cp');
    await stack.stopControlPlane('SIGKILL');
    await sleep(500);
    await stack.startControlPlane();
    log('cp restarted');
    const done2 = await api.waitForOperation(up2.body.operation.id, 120_000);
    expect(done2.state, JSON.stringify(done2)).toBe('succeeded');
    expect((await api.waitForHealthy(id)).shards).toHaveLength(4);
    await consistent();

    // Agent restart mid-migration (the agent running the migration task): the task is handed out again, open slots closed, finished.
    const down = await api.call<ClusterUpdateAccepted & Problem>('PATCH', `/v1/clusters/${id}`, { shards: 3 });
    expect(down.status, JSON.stringify(down.body)).toBe(202);
    const t = (await api.topology(id)).body;
    const runnerAddress = t.shards[0]!.instances.find((i) => i.role === 'primary')!.address;
    const agentIndex = stack.agents.findIndex((a) => runnerAddress.startsWith(`${a.address}:`));
    await midMigration(down.body.operation.id);
    log('killing agent');
    await stack.stopAgent(agentIndex, 'SIGKILL');
    await sleep(300);
    await stack.startAgent(agentIndex);
    log('agent restarted');
    const done3 = await api.waitForOperation(down.body.operation.id, 120_000);
    expect(done3.state, JSON.stringify(done3)).toBe('succeeded');
    expect((await api.waitForHealthy(id)).shards).toHaveLength(3);
    await consistent();

    log('all done');
    await load.stop();
    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    let total = 0;
    for (const n of fresh.nodes('master')) total += Number(await n.dbsize());
    expect(total).toBe(KEYS);
    expect(load.readMisses).toBe(0);
    console.log(`faults: load ${load.writes} writes, ${load.reads} reads, ${load.errors} errors ${load.errorSamples.join(' | ')}`);
    app.disconnect();
    fresh.disconnect();
    load['client'].disconnect();
  }, 400_000);
});
