/**
 * The applier against an in-memory store and a fake task broker: each act is
 * one function whoever asks for it (healing or an operation's step), tasks
 * carry their identity's key, and a failed task is retried by its owner's
 * rule.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedInstance, TaskRequest } from '@strata/api';
import type { ClusterContext, ReconcileDeps } from './cluster-context';
import type { ClusterRow, InstanceRow, LostInstanceRow } from '../stores/cluster.store';
import type { TaskRow, TaskState } from '../stores/task.store';
import { taskKey } from './dedupe-keys';
import { forgetNonMembers, instanceSpec, recordRole, removeInstance, startInstance, submitTask } from './applier';
import { applyAction } from './apply-actions';

interface Enqueued { nodeId: string; operationId: string | null; dedupeKey: string; request: TaskRequest; inTx: boolean }

/** A 2x1 cluster (p0 r0 on n0/n1, p1 r1 on n1/n0) with a fake store, broker and event log. */
function fake(opts: { operationId?: string | null; observed?: Record<string, Partial<ObservedInstance>>; lost?: LostInstanceRow[]; phase?: string; seeded?: boolean } = {}) {
  const enqueued: Enqueued[] = [];
  const events: { type: string; key?: string; inTx: boolean }[] = [];
  const recorded: { id: string; role: string; inTx: boolean }[] = [];
  const forgotten: string[] = [];
  const notified: string[] = [];
  const tasks = new Map<string, TaskRow>();
  let failures = 0;
  let txs = 0;
  const instances: InstanceRow[] = [0, 1].flatMap((shard) => [
    { id: `p${shard}`, clusterId: 'c', shardIndex: shard, role: 'primary' as const, preferredRole: 'primary' as const, replicaIndex: 0, nodeId: `n${shard}`, port: 7000, memoryMb: 64, engineId: `P${shard}`, configEpoch: 1 },
    { id: `r${shard}`, clusterId: 'c', shardIndex: shard, role: 'replica' as const, preferredRole: 'replica' as const, replicaIndex: 1, nodeId: `n${1 - shard}`, port: 7001, memoryMb: 64, engineId: `R${shard}`, configEpoch: 1 },
  ]);
  const inTx = (db: unknown) => db === 'tx';
  const deps = {
    tasks: {
      enqueue: async (t: { nodeId: string; request: TaskRequest; dedupeKey: string; operationId: string | null }, db?: unknown) => {
        enqueued.push({ ...t, inTx: inTx(db) });
        return true;
      },
      countFailures: async () => failures,
      failuresSinceSuccess: async () => failures,
    },
    events: { record: async (_c: unknown, e: { type: string }, key?: string, db?: unknown) => { events.push({ type: e.type, key, inTx: inTx(db) }); return true; } },
    clusters: {
      recordObservedInstance: async (id: string, o: { role: string }, db?: unknown) => { recorded.push({ id, role: o.role, inTx: inTx(db) }); },
      markForgotten: async (ids: string[]) => { forgotten.push(...ids); },
    },
    notifyNode: (n: string) => notified.push(n),
    transaction: async <T>(fn: (db: never) => Promise<T>) => { txs++; return fn('tx' as never); },
    maxTaskAttempts: 3,
    // A same-layout restore: each shard's backup file.
    restoreSeed: async (_c: string, shard: number) => (opts.seeded ? { key: `file-${shard}` } : null),
  } as unknown as ReconcileDeps;
  const obs = (id: string, o: Partial<ObservedInstance> = {}): ObservedInstance => ({
    instanceId: id, clusterId: 'c', port: 7000, pid: 1, state: 'running', restarts: 0, lastError: null, cluster: null, held: false, crashedAt: null, ...o,
  });
  const observed = Object.fromEntries(instances.map((i) => [i.id, obs(i.id, opts.observed?.[i.id])]));
  for (const [id, o] of Object.entries(opts.observed ?? {})) if (o === null) delete observed[id];
  const ctx: ClusterContext = {
    deps,
    cluster: { id: 'c', organizationId: 'o', spec: { shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'aof-everysec', evictionPolicy: 'noeviction', engineVersion: '7' }, tlsLayout: 'plain', tlsBus: false, status: { phase: opts.phase ?? 'ready' } } as ClusterRow,
    operationId: opts.operationId ?? null,
    instances, lost: opts.lost ?? [], shards: [],
    nodes: new Map(['n0', 'n1'].map((id, k) => [id, { id, name: id, address: `10.0.0.${k + 1}` } as never])),
    tasks,
    observe: (id) => observed[id] ?? null,
    nodeReportedAt: () => Date.now(),
    awaitingFirstReport: () => false,
    endpointServed: null,
  };
  const setTask = (key: string, state: TaskState, ageMs = 0, createdAt = new Date(Date.now() - ageMs)) =>
    tasks.set(key, { id: key, dedupeKey: key, state, updatedAt: new Date(Date.now() - ageMs), createdAt, error: 'boom' } as TaskRow);
  return {
    ctx, enqueued, events, recorded, forgotten, notified, setTask, byId: (id: string) => instances.find((i) => i.id === id)!,
    fail: (n: number) => { failures = n; }, txs: () => txs,
  };
}

describe('submitTask: one submission rule for healing and operations', () => {
  const start = (f: ReturnType<typeof fake>) => submitTask(f.ctx, { nodeId: 'n0', id: { kind: 'start', instanceId: 'p0' }, settleMs: 3000, request: { kind: 'ensure-instance', instance: instanceSpec(f.ctx, f.byId('p0')) } });
  const key = taskKey({ kind: 'start', instanceId: 'p0' });

  it('enqueues under the identity\'s key, owned by the context\'s operation, and wakes the node', async () => {
    const f = fake({ operationId: 'op' });
    expect(await start(f)).toBeNull();
    expect(f.enqueued).toMatchObject([{ nodeId: 'n0', operationId: 'op', dedupeKey: key }]);
    expect(f.notified).toEqual(['n0']);
  });

  it('leaves an open task and one that just succeeded alone', async () => {
    const f = fake();
    f.setTask(key, 'leased');
    await start(f);
    f.setTask(key, 'succeeded', 1000);
    await start(f);
    expect(f.enqueued).toEqual([]);
    f.setTask(key, 'succeeded', 4000);
    await start(f);
    expect(f.enqueued).toHaveLength(1);
  });

  it("an operation's task that keeps failing fails the operation", async () => {
    const f = fake({ operationId: 'op' });
    f.setTask(key, 'failed', 10);
    f.fail(3);
    expect(await start(f)).toMatchObject({ kind: 'failed', code: 'task_failed', message: 'ensure-instance failed 3 times: boom' });
    expect(f.enqueued).toEqual([]);
  });

  it("healing's task is retried with backoff, never given up", async () => {
    const f = fake();
    f.fail(4);
    f.setTask(key, 'failed', 2000); // backoff after 4 failures: 4 s
    expect(await start(f)).toBeNull();
    expect(f.enqueued).toEqual([]);
    f.setTask(key, 'failed', 4500);
    expect(await start(f)).toBeNull();
    expect(f.enqueued).toHaveLength(1);
  });
});

describe('one function per act, whoever asks', () => {
  it('start: healing and an operation hand the same ensure-instance (spec from the cluster, or the settings given)', async () => {
    const heal = fake();
    await startInstance(heal.ctx, heal.byId('r1'));
    await applyAction(heal.ctx, { kind: 'start', shard: 0, instanceId: 'r1' });
    const op = fake({ operationId: 'op' });
    await startInstance(op.ctx, op.byId('r1'), { memoryMbPerShard: 128, durability: 'none', evictionPolicy: 'allkeys-lru' });
    expect(heal.enqueued[0]!.request).toEqual({ kind: 'ensure-instance', instance: { instanceId: 'r1', clusterId: 'c', port: 7001, memoryMb: 64, durability: 'aof-everysec', evictionPolicy: 'noeviction', fencing: 'off' } });
    expect(op.enqueued[0]!.request).toEqual({ kind: 'ensure-instance', instance: { instanceId: 'r1', clusterId: 'c', port: 7001, memoryMb: 128, durability: 'none', evictionPolicy: 'allkeys-lru', fencing: 'off' } });
    expect(heal.enqueued.map((t) => t.dedupeKey)).toEqual([taskKey({ kind: 'start', instanceId: 'r1' }), taskKey({ kind: 'start', instanceId: 'r1' })]);
  });

  it('start: only a create not yet formed may start a held engine again (release); later, and in any other operation, healing decides', async () => {
    const released = async (operation: { kind: string; steps: { name: string; state: string }[] } | undefined) => {
      const f = fake({ operationId: operation ? 'op' : null });
      f.ctx.operation = operation as never;
      await startInstance(f.ctx, f.byId('p0'));
      return (f.enqueued[0]!.request as { release?: boolean }).release === true;
    };
    expect(await released({ kind: 'create-cluster', steps: [{ name: 'start-instances', state: 'running' }] })).toBe(true);
    expect(await released({ kind: 'create-cluster', steps: [{ name: 'start-instances', state: 'succeeded' }, { name: 'form-cluster', state: 'succeeded' }, { name: 'load-data', state: 'running' }] })).toBe(false);
    expect(await released({ kind: 'update-cluster', steps: [{ name: 'start-instances', state: 'running' }] })).toBe(false);
    expect(await released(undefined)).toBe(false);
  });

  it("a valkey-8 cluster's instances name their engine (a Redis 7.0 one's do not: the agent's default)", () => {
    const f = fake();
    f.ctx.cluster.spec.engineVersion = 'valkey-8';
    expect(instanceSpec(f.ctx, f.byId('p0')).engineVersion).toBe('valkey-8');
    expect(instanceSpec(fake().ctx, f.byId('p0'))).not.toHaveProperty('engineVersion');
  });

  it('each healing action becomes the task of its kind', async () => {
    const f = fake();
    await applyAction(f.ctx, { kind: 'promote', shard: 0, instanceId: 'r0', fromInstanceId: 'p0', mode: 'force', crashedAt: 5 });
    await applyAction(f.ctx, { kind: 'switchover', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', reason: 'rebalance' });
    await applyAction(f.ctx, { kind: 'join', shard: 1, instanceId: 'r1', primaryInstanceId: 'p1' });
    await applyAction(f.ctx, { kind: 'repair-slots', slots: [7] });
    expect(f.enqueued.map((t) => [t.nodeId, t.request.kind, t.dedupeKey])).toEqual([
      ['n1', 'failover', taskKey({ kind: 'promote', shard: 0, fromInstanceId: 'p0', crashedAt: 5 })],
      ['n0', 'failover', taskKey({ kind: 'switchover', shard: 1, fromInstanceId: 'p1' })],
      ['n0', 'join-replica', taskKey({ kind: 'join', instanceId: 'r1', primaryInstanceId: 'p1' })],
      ['n0', 'repair-slots', taskKey({ kind: 'repair-slots', slots: [7] })],
    ]);
    expect(f.enqueued.map((t) => (t.request.kind === 'failover' ? t.request.mode : null))).toEqual(['force', 'switchover', null, null]);
  });

  it('restart: the task and the events that tell the user commit in one transaction', async () => {
    const f = fake({ observed: { p0: { state: 'crashed', held: true } } });
    await applyAction(f.ctx, { kind: 'restart', shard: 0, instanceId: 'p0', crashedAt: 9, reason: 'the shard has no replica', dataLost: true, superseded: false });
    expect(f.txs()).toBe(1);
    expect(f.enqueued).toMatchObject([{ inTx: true, dedupeKey: taskKey({ kind: 'restart', instanceId: 'p0', crashedAt: 9 }) }]);
    expect(f.events.map((e) => [e.type, e.inTx])).toEqual([['instance-restarted', true], ['data-lost', true]]);
    // Restarted in place (no replica took over): it keeps its slot claims. Only a restart releases a held engine.
    expect(f.enqueued[0]!.request).not.toHaveProperty('dropClaims');
    expect(f.enqueued[0]!.request).toMatchObject({ kind: 'ensure-instance', release: true });
  });

  it('restart before the cluster is ready: a restored primary loads its backup file again; no data is reported lost (a restore loads again, a new cluster had none)', async () => {
    const f = fake({ observed: { p0: { state: 'crashed', held: true } }, phase: 'provisioning', seeded: true });
    await applyAction(f.ctx, { kind: 'restart', shard: 0, instanceId: 'p0', crashedAt: 9, reason: 'the shard has no replica', dataLost: true, superseded: false });
    expect(f.enqueued[0]!.request).toMatchObject({ kind: 'ensure-instance', release: true, seed: { key: 'file-0' } });
    expect(f.events.map((e) => e.type)).toEqual(['instance-restarted']);
    // Once the cluster is ready, a restart never loads the backup again (it would bring back old data).
    const ready = fake({ observed: { p0: { state: 'crashed', held: true } }, seeded: true });
    await applyAction(ready.ctx, { kind: 'restart', shard: 0, instanceId: 'p0', crashedAt: 9, reason: 'the shard has no replica', dataLost: true, superseded: false });
    expect(ready.enqueued[0]!.request).not.toHaveProperty('seed');
    expect(ready.events.map((e) => e.type)).toEqual(['instance-restarted', 'data-lost']);
    const created = fake({ observed: { p0: { state: 'crashed', held: true } }, phase: 'provisioning' });
    await applyAction(created.ctx, { kind: 'restart', shard: 0, instanceId: 'p0', crashedAt: 9, reason: 'the shard has no replica', dataLost: true, superseded: false });
    expect(created.enqueued[0]!.request).not.toHaveProperty('seed');
    expect(created.events.map((e) => e.type)).toEqual(['instance-restarted']);
  });

  it('restart of a primary a replica replaced: the agent drops its old slot claims before it starts', async () => {
    const f = fake({ observed: { p0: { state: 'crashed', held: true } } });
    await applyAction(f.ctx, { kind: 'restart', shard: 0, instanceId: 'p0', crashedAt: 9, reason: 'rejoins as a replica of the new primary', dataLost: false, superseded: true });
    expect(f.enqueued[0]!.request).toMatchObject({ kind: 'ensure-instance', dropClaims: true });
  });

  it('record-role: a promotion commits with the failover event of the primary it replaces', async () => {
    const f = fake();
    await recordRole(f.ctx, { kind: 'record-role', instanceId: 'r0', shard: 0, role: 'primary', engineId: 'R0', configEpoch: 2, previousRole: 'replica', replaces: 'p0' });
    expect(f.recorded).toEqual([{ id: 'r0', role: 'primary', inTx: true }]);
    expect(f.events).toMatchObject([{ type: 'failover', key: 'failover:r0:2', inTx: true }]);
    expect(f.byId('r0').role).toBe('primary');
    // A role update without a failover records no event.
    await recordRole(f.ctx, { kind: 'record-role', instanceId: 'p0', shard: 0, role: 'replica', engineId: 'P0', configEpoch: 2, previousRole: 'primary' });
    expect(f.events).toHaveLength(1);
  });
});

describe('forgetNonMembers', () => {
  it('keeps every member (running or not) and runs on the running ones', async () => {
    const f = fake({ observed: { p1: { state: 'crashed', held: true } } });
    await forgetNonMembers(f.ctx, f.ctx.instances, 'heal');
    const req = f.enqueued[0]!.request as Extract<TaskRequest, { kind: 'forget-nodes' }>;
    expect(req.members.map((m) => [m.instanceId, m.engineId, m.running])).toEqual([['p0', 'P0', true], ['r0', 'R0', true], ['p1', 'P1', false], ['r1', 'R1', true]]);
    expect(f.enqueued[0]!.dedupeKey).toBe(taskKey({ kind: 'forget', scope: 'heal' }));
  });

  it('marks lost copies forgotten once a run that began after their loss succeeded', async () => {
    const lost = (id: string, lostAt: number) => ({ id, clusterId: 'c', shardIndex: 0, role: 'replica', preferredRole: 'replica', replicaIndex: 2, nodeId: 'n9', port: 7002, memoryMb: 64, lostAt: new Date(lostAt), forgottenAt: null }) as LostInstanceRow;
    const now = Date.now();
    const f = fake({ lost: [lost('old', now - 60_000), lost('new', now - 1000)] });
    f.setTask(taskKey({ kind: 'forget', scope: 'heal' }), 'succeeded', 10_000, new Date(now - 30_000));
    await forgetNonMembers(f.ctx, f.ctx.instances, 'heal', ['old', 'new']);
    expect(f.forgotten).toEqual(['old']);
    // ... and asks again, for the copy lost since.
    expect(f.enqueued).toHaveLength(1);
  });

  it('a copy lost just after a run succeeded is forgotten at once, not after the run settles; without one the run settles', async () => {
    const lost = (id: string, lostAt: number) => ({ id, clusterId: 'c', shardIndex: 0, role: 'replica', preferredRole: 'replica', replicaIndex: 2, nodeId: 'n9', port: 7002, memoryMb: 64, lostAt: new Date(lostAt), forgottenAt: null }) as LostInstanceRow;
    const now = Date.now();
    const settled = fake({ lost: [lost('a', now - 2000)] });
    settled.setTask(taskKey({ kind: 'forget', scope: 'heal' }), 'succeeded', 500, new Date(now - 1000));
    await forgetNonMembers(settled.ctx, settled.ctx.instances, 'heal', ['a']);
    expect(settled.forgotten).toEqual(['a']);
    expect(settled.enqueued).toEqual([]);
    const f = fake({ lost: [lost('a', now - 2000), lost('b', now - 500)] });
    f.setTask(taskKey({ kind: 'forget', scope: 'heal' }), 'succeeded', 500, new Date(now - 1000));
    await forgetNonMembers(f.ctx, f.ctx.instances, 'heal', ['a', 'b']);
    expect(f.forgotten).toEqual(['a']);
    expect(f.enqueued).toHaveLength(1);
  });
});

describe('remove', () => {
  it('stops the instance and deletes its data, for healing and operations alike', async () => {
    const f = fake({ operationId: 'op' });
    await removeInstance(f.ctx, f.byId('r1'));
    expect(f.enqueued).toMatchObject([{ request: { kind: 'remove-instance', instanceId: 'r1', clusterId: 'c' }, dedupeKey: taskKey({ kind: 'remove', instanceId: 'r1' }), operationId: 'op' }]);
  });
});
