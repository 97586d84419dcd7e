/**
 * Online resharding against a real stack, under a client that reads and
 * writes the whole time: 3 -> 4 -> 3 shards holding 100,000 keys, every key
 * with its last acknowledged value, no slot left open; dry run and bad
 * requests change nothing; a PATCH while a change runs is 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '@strata/local';
import type { Cluster, Operation } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, loadKeys } from './helpers/workload';
import { settledPrimaries } from './helpers/redis-client';
import { LastValueLoad, slotReport } from './helpers/reshard-load';
import { keySlot } from '@strata/bench/loadgen';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.60', { nodes: 4 }));
});
afterAll(async () => cleanup?.());

const KEYS = 100_000;

const patch = (id: string, body: unknown, dryRun = false) => api.updateCluster(id, body, dryRun);

async function waitOp(id: string, timeoutMs = 120_000): Promise<Operation> {
  const op = await api.waitForOperation(id, timeoutMs);
  return op;
}

async function primaries(id: string): Promise<string[]> {
  const t = (await api.topology(id)).body;
  return t.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address));
}

describe('resharding under load', () => {
  it('3 -> 4 -> 3 shards with 100,000 keys: every key keeps its last acknowledged value, no slot open, dry run and bad input change nothing, PATCH during a change is 409', async () => {
    const r = await api.createCluster({ name: 'reshard', shards: 3, replicasPerShard: 1, memoryMbPerShard: 128 });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const conn = (await api.connection(id)).body;
    const auth = { username: conn.username, password: conn.password };
    const app = appClient(conn.uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);

    // Bad input: problem+json naming the field; nothing changes.
    const before = (await api.getCluster(id)).body as Cluster;
    const bad = await patch(id, { shards: 0 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors?.[0]?.field).toBe('shards');
    expect((await patch(id, { name: 'other' })).body.errors?.[0]?.field).toBe('name');
    expect((await patch(id, {})).status).toBe(400);
    expect((await patch(id, { shards: 3 })).status).toBe(400);
    const tooMany = await patch(id, { replicasPerShard: 4 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors?.[0]?.field).toBe('replicasPerShard');
    expect((await api.updateCluster('00000000-0000-4000-8000-000000000000', { shards: 4 })).status).toBe(404);
    const badPriority = await patch(id, { shards: 4, migrationPriority: 'turbo' });
    expect(badPriority.status).toBe(400);
    expect(badPriority.body.errors?.[0]?.field).toBe('migrationPriority');

    // Dry run: the plan, with live estimates; nothing changes.
    const dry = await patch(id, { shards: 4 }, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.plan.totals.slots).toBe(4096);
    expect(dry.body.plan.slotMoves.every((m) => m.toShard === 3)).toBe(true);
    expect(dry.body.plan.addInstances.map((a) => a.role).sort()).toEqual(['primary', 'replica']);
    expect(dry.body.plan.online).toBe(true);
    expect(dry.body.plan.steps.map((s) => s.name)).toContain('migrate-slots');
    // What the move costs at each priority; the cluster's (default balanced) is the one it runs at.
    expect(dry.body.plan.migrationPriority).toBe('balanced');
    const costs = dry.body.plan.migrationCosts;
    expect(costs.map((c) => c.priority)).toEqual(['gentle', 'balanced', 'fast']);
    expect(costs[0]!.estimatedSeconds).toBeGreaterThan(costs[2]!.estimatedSeconds);
    expect(costs[0]!.maxBlockMs).toBeLessThan(costs[2]!.maxBlockMs);
    const after = (await api.getCluster(id)).body as Cluster;
    expect(after.generation).toBe(before.generation);
    expect(after.spec).toEqual(before.spec);
    expect((await api.topology(id)).body.shards).toHaveLength(3);
    expect((await api.clusterOperations(id)).body.items).toHaveLength(1);

    // 3 -> 4 under load.
    const load = new LastValueLoad(appClient(conn.uri, conn.seeds), 'k', KEYS).start();
    await new Promise((res) => setTimeout(res, 500));
    const up = await patch(id, { shards: 4 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    expect(up.body.cluster.generation).toBe(before.generation + 1);
    const busy = await patch(id, { replicasPerShard: 2 });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('operation_in_progress');
    expect(busy.body.operationId).toBe(up.body.operation.id);
    let sawProgress = false;
    const started = Date.now();
    for (;;) {
      const op = (await api.operation(up.body.operation.id)).body;
      if (op.migration && op.migration.slotsDone > 0) sawProgress = true;
      if (['succeeded', 'failed', 'cancelled'].includes(op.state)) {
        expect(op.state, JSON.stringify(op)).toBe('succeeded');
        expect(op.migration?.slotsDone).toBe(4096);
        break;
      }
      if (Date.now() - started > 120_000) throw new Error(`3 -> 4 did not finish: ${JSON.stringify(op)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    console.log(`3 -> 4 shards: ${Date.now() - started} ms; load ${load.writes} writes, ${load.reads} reads, ${load.errors} errors ${load.errorSamples.join(' | ')}`);
    expect(sawProgress).toBe(true);
    const four = await api.waitForHealthy(id);
    expect(four.shards).toHaveLength(4);
    for (const s of four.shards) expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(2);
    expect(four.shards[3]!.slots.reduce((n, x) => n + x.end - x.start + 1, 0)).toBe(4096);
    let slots = await slotReport(await primaries(id), auth);
    expect(slots).toEqual({ owned: 16384, open: [], assigned: 16384 });
    expect((await api.getCluster(id)).body.observedGeneration).toBe(before.generation + 1);

    // 4 -> 3 under the same load, at gentle priority (kept for later changes).
    const down = await patch(id, { shards: 3, migrationPriority: 'gentle' });
    expect(down.status, JSON.stringify(down.body)).toBe(202);
    expect(down.body.plan.removeInstances).toHaveLength(2);
    expect(down.body.plan.migrationPriority).toBe('gentle');
    expect(down.body.cluster.spec.migrationPriority).toBe('gentle');
    const op2 = await waitOp(down.body.operation.id);
    expect(op2.state, JSON.stringify(op2)).toBe('succeeded');
    await load.stop();
    const three = await api.waitForHealthy(id);
    expect(three.shards).toHaveLength(3);
    expect(three.shards.flatMap((s) => s.instances)).toHaveLength(6);
    slots = await slotReport(await primaries(id), auth);
    expect(slots).toEqual({ owned: 16384, open: [], assigned: 16384 });

    const fresh = appClient(conn.uri, (await api.connection(id)).body.seeds);
    expect(await load.wrong(fresh)).toEqual([]);
    // Each primary holds exactly the keys of its shard's slots (so together every key, once).
    const expected: Record<string, number> = {};
    for (const s of three.shards) {
      const primary = s.instances.find((i) => i.role === 'primary')!.address;
      expected[primary] = 0;
      for (let i = 0; i < KEYS; i++) {
        const slot = keySlot(`k:${i}`);
        if (s.slots.some((r) => slot >= r.start && slot <= r.end)) expected[primary]++;
      }
    }
    await settledPrimaries(fresh, Object.keys(expected));
    const held: Record<string, number> = {};
    for (const n of fresh.nodes('master')) held[`${n.options.host}:${n.options.port}`] = Number(await n.dbsize());
    expect(held).toEqual(expected);
    expect(Object.values(held).reduce((a, n) => a + n, 0)).toBe(KEYS);
    expect(load.readMisses).toBe(0);
    expect(load.errors).toBe(0);
    console.log(`3 -> 4 -> 3 done; load ${load.writes} writes, ${load.reads} reads, ${load.errors} errors, ${load.readMisses} read misses`);
    app.disconnect();
    fresh.disconnect();
    load['client'].disconnect();
  });
});
