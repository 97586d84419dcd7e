import { describe, expect, it } from 'vitest';
import type { ObservedInstance, Operation } from '@strata/api';
import type { ClusterContext, ReconcileDeps } from './cluster-context';
import type { ClusterRow, InstanceRow } from '../stores/cluster.store';
import type { TaskRow } from '../stores/task.store';
import { createClusterSteps } from './create-cluster.steps';
import { runSteps } from './step-runner';
import { taskKey } from './dedupe-keys';

/** An in-memory context: fake task queue and fake observations, no database. */
function fakeContext(observed: Map<string, ObservedInstance>) {
  const enqueued: { nodeId: string; kind: string; dedupeKey: string; operationId: string | null }[] = [];
  const tasks = new Map<string, TaskRow>();
  const instances: InstanceRow[] = [0, 1].flatMap((shard) => [
    { id: `p${shard}`, clusterId: 'c', shardIndex: shard, role: 'primary' as const, preferredRole: 'primary' as const, replicaIndex: 0, nodeId: `n${shard}`, port: 7000, memoryMb: 64 },
    { id: `r${shard}`, clusterId: 'c', shardIndex: shard, role: 'replica' as const, preferredRole: 'replica' as const, replicaIndex: 1, nodeId: `n${1 - shard}`, port: 7001, memoryMb: 64 },
  ]);
  const deps = {
    tasks: {
      enqueue: async (t: { nodeId: string; request: { kind: string }; dedupeKey: string; operationId: string | null }) => {
        if ([...tasks.values()].some((x) => x.dedupeKey === t.dedupeKey && x.state === 'pending')) return false;
        enqueued.push({ nodeId: t.nodeId, kind: t.request.kind, dedupeKey: t.dedupeKey, operationId: t.operationId });
        tasks.set(t.dedupeKey, { id: t.dedupeKey, state: 'pending', dedupeKey: t.dedupeKey, updatedAt: new Date() } as TaskRow);
        return true;
      },
      countFailures: async () => 0,
    },
    notifyNode: () => {},
    observed: { isSilent: () => false, silentForMs: () => 0, unreachableByPeers: () => false, staleAfterMs: 5000 },
    nodeDownAfterMs: 15_000,
    clusters: { recordObservedInstance: async () => {} },
  } as unknown as ReconcileDeps;
  const ctx: ClusterContext = {
    deps,
    cluster: { id: 'c', spec: { shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'none', evictionPolicy: 'noeviction', engineVersion: '7' } } as ClusterRow,
    operationId: 'o',
    instances,
    lost: [],
    shards: [],
    nodes: new Map(['n0', 'n1'].map((id, i) => [id, { id, name: id, address: `127.0.9.${i + 1}` } as never])),
    tasks,
    observe: (id) => observed.get(id) ?? null,
    nodeReportedAt: () => Date.now(),
    awaitingFirstReport: () => false,
    endpointServed: null,
  };
  return { ctx, enqueued, tasks, instances };
}

const op = (): Operation => ({ id: 'o', clusterId: 'c', kind: 'create-cluster', state: 'pending', progress: 0, steps: [], createdAt: '', updatedAt: '' });
const running = (id: string, cluster: ObservedInstance['cluster'] = null): ObservedInstance => ({
  instanceId: id, clusterId: 'c', port: 7000, pid: 1, state: 'running', restarts: 0, lastError: null, cluster, held: false, crashedAt: null,
});

describe('create-cluster steps (fake store and agents)', () => {
  it('asks each node to start its instances once, then waits', async () => {
    const observed = new Map<string, ObservedInstance>();
    const { ctx, enqueued } = fakeContext(observed);
    const o = op();
    expect(await runSteps(o, createClusterSteps(ctx), ctx)).toEqual({ kind: 'waiting' });
    expect(enqueued.map((t) => t.dedupeKey).sort()).toEqual(['p0', 'p1', 'r0', 'r1'].map((id) => taskKey({ kind: 'start', instanceId: id })));
    // Tasks belong to the operation that asked for them.
    expect(new Set(enqueued.map((t) => t.operationId))).toEqual(new Set(['o']));
    expect(o.steps.find((s) => s.name === 'start-instances')).toMatchObject({ state: 'running', detail: '0 of 4 running' });
    await runSteps(o, createClusterSteps(ctx), ctx);
    expect(enqueued).toHaveLength(4);
  });

  it('forms the cluster on the first primary once all run, and is done only when every member agrees', async () => {
    const observed = new Map<string, ObservedInstance>();
    const { ctx, enqueued, tasks, instances } = fakeContext(observed);
    for (const i of instances) observed.set(i.id, running(i.id));
    const o = op();
    await runSteps(o, createClusterSteps(ctx), ctx);
    const form = enqueued.find((t) => t.kind === 'form-cluster')!;
    expect(form.nodeId).toBe('n0');
    expect(o.progress).toBeGreaterThanOrEqual(0.5);

    const formKey = taskKey({ kind: 'form', clusterId: 'c' });
    tasks.set(formKey, { ...tasks.get(formKey)!, state: 'succeeded' });
    const view = (role: 'primary' | 'replica', primaryId: string | null) => ({ myId: '', role, state: 'ok' as const, knownNodes: 4, slotsAssigned: 16384, primaryId, primaryLinkUp: role === 'replica' ? true : null, slotsOwned: role === 'primary' ? 8192 : 0, openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1 });
    observed.set('p0', running('p0', { ...view('primary', null), myId: 'P0' }));
    observed.set('p1', running('p1', { ...view('primary', null), myId: 'P1' }));
    observed.set('r0', running('r0', { ...view('replica', 'P0'), myId: 'R0' }));
    // r1 follows the wrong primary: not done yet.
    observed.set('r1', running('r1', { ...view('replica', 'P0'), myId: 'R1' }));
    expect(await runSteps(o, createClusterSteps(ctx), ctx)).toEqual({ kind: 'waiting' });
    expect(o.steps.find((s) => s.name === 'verify')?.detail).toBe('3 of 4 nodes agree');

    observed.set('r1', running('r1', { ...view('replica', 'P1'), myId: 'R1' }));
    // Every member agrees, but no agent serves the endpoint the connection URI names yet.
    ctx.endpointServed = false;
    expect(await runSteps(o, createClusterSteps(ctx), ctx)).toEqual({ kind: 'waiting' });
    expect(o.steps.find((s) => s.name === 'verify')?.detail).toBe('4 of 4 nodes agree; waiting for an agent to serve the endpoint');
    ctx.endpointServed = true;
    expect(await runSteps(o, createClusterSteps(ctx), ctx)).toEqual({ kind: 'succeeded' });
    expect(o.progress).toBe(1);
  });
});
