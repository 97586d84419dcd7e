import { describe, expect, it } from 'vitest';
import type { ObservedClusterView } from '../domain';
import { MAX_LOAD_ROUNDS, planCreateStep, planDeleteStep, planSwitchoverStep, type CreateInput, type OpInstance, type TaskView } from './operation.planner';

const NOW = 1_000_000;
const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 4, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 8192 : 0,
  openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
/** A 2x1 cluster: p<s> primary on n<s>, r<s> its replica on the other node; `state` says how far it got. */
function cluster(state: 'absent' | 'running' | 'formed'): OpInstance[] {
  return [0, 1].flatMap((s) => (['p', 'r'] as const).map((k) => {
    const id = `${k}${s}`;
    const role = k === 'p' ? 'primary' as const : 'replica' as const;
    const v = state === 'formed' ? view(role === 'primary' ? { myId: `P${s}`, role } : { myId: `R${s}`, role, primaryId: `P${s}`, primaryLinkUp: true })
      : view({ myId: id.toUpperCase(), role: 'primary', state: 'fail', knownNodes: 1, slotsOwned: 0 });
    return {
      id, shard: s, role, engineId: null, label: `10.0.0.${s}:700${k === 'p' ? 0 : 1}`, nodeName: `n${k === 'p' ? s : 1 - s}`,
      obs: state === 'absent' ? null : { process: 'running' as const, view: v }, crashed: false, nodeReportedAt: NOW,
    };
  }));
}
const create = (instances: OpInstance[], over: Partial<CreateInput> = {}): CreateInput => ({ instances, form: null, endpointServed: true, now: NOW, reformAfterMs: 5000, ...over });
const succeeded = (ageMs: number): TaskView => ({ state: 'succeeded', updatedAt: NOW - ageMs });

describe('planCreateStep', () => {
  const table: { name: string; step: Parameters<typeof planCreateStep>[0]; input: CreateInput; actions: unknown[]; verdict: unknown }[] = [
    { name: 'plan records the placement', step: 'plan', input: create(cluster('absent')), actions: [], verdict: { kind: 'done', detail: '4 instances on 2 nodes' } },
    { name: 'start: every instance not running is started', step: 'start-instances', input: create(cluster('absent')),
      actions: ['p0', 'r0', 'p1', 'r1'].map((id) => ({ kind: 'start', shard: Number(id[1]), instanceId: id })), verdict: { kind: 'wait', detail: '0 of 4 running', fraction: 0 } },
    { name: 'start: done once all run', step: 'start-instances', input: create(cluster('running')), actions: [], verdict: { kind: 'done', detail: '4 of 4 running' } },
    { name: 'form: form once all run', step: 'form-cluster', input: create(cluster('running')), actions: [{ kind: 'form' }], verdict: { kind: 'wait', detail: 'meeting nodes, assigning 16384 slots, attaching replicas' } },
    { name: 'form: done when the form task succeeded', step: 'form-cluster', input: create(cluster('running'), { form: succeeded(100) }), actions: [], verdict: { kind: 'done' } },
    { name: 'form: done when every member is already healthy', step: 'form-cluster', input: create(cluster('formed')), actions: [], verdict: { kind: 'done' } },
    { name: 'verify: done when every member agrees, recording their ids', step: 'verify', input: create(cluster('formed')),
      actions: [{ kind: 'remember-ids', instanceIds: ['p0', 'r0', 'p1', 'r1'] }], verdict: { kind: 'done', detail: '4 of 4 nodes agree' } },
    { name: 'verify: waits for an agent to serve the endpoint', step: 'verify', input: create(cluster('formed'), { endpointServed: false }),
      actions: [], verdict: { kind: 'wait', detail: '4 of 4 nodes agree; waiting for an agent to serve the endpoint', fraction: 0.99 } },
    { name: 'verify: nodes that disagree long after the form task succeeded are formed again', step: 'verify', input: create(cluster('running'), { form: succeeded(6000) }),
      actions: [{ kind: 'form' }], verdict: { kind: 'wait', detail: '0 of 4 nodes agree', fraction: 0 } },
    { name: 'verify: ... but not right after it', step: 'verify', input: create(cluster('running'), { form: succeeded(1000) }), actions: [], verdict: { kind: 'wait', detail: '0 of 4 nodes agree', fraction: 0 } },
  ];
  it.each(table)('$name', ({ step, input, actions, verdict }) => {
    expect(planCreateStep(step, input)).toEqual({ actions, verdict });
  });

  it.each(['start-instances', 'form-cluster', 'load-data', 'verify'] as const)('%s: a node holding instances went down: the create fails, naming the node and what it held', (step) => {
    const l = cluster(step === 'start-instances' ? 'absent' : 'formed');
    for (const i of l) if (i.nodeName === 'n1') i.nodeDown = true;
    const restore = step === 'load-data' ? [{ backupShard: 0, round: 0, task: null, earlierRunning: false, done: 0, total: null }] : undefined;
    const plan = planCreateStep(step, create(l, { restore }));
    expect(plan.actions).toEqual([]);
    expect(plan.verdict).toMatchObject({ kind: 'failed', code: 'node_down' });
    const message = (plan.verdict as { message: string }).message;
    expect(message).toContain('node n1 went down');
    expect(message).toContain('it held 10.0.0.0:7001 (Shard 1 replica), 10.0.0.1:7000 (Shard 2 primary)');
    expect(message).toContain(step === 'load-data' ? 'restore it again' : 'create it again');
    expect(planCreateStep('plan', create(l)).verdict.kind).toBe('done');
  });

  it('a replica following the wrong primary is not formed yet', () => {
    const l = cluster('formed');
    l.find((i) => i.id === 'r1')!.obs = { process: 'running', view: view({ myId: 'R1', role: 'replica', primaryId: 'P0', primaryLinkUp: true }) };
    expect(planCreateStep('verify', create(l)).verdict).toEqual({ kind: 'wait', detail: '3 of 4 nodes agree', fraction: 0.75 });
  });
});

describe('planDeleteStep', () => {
  it('removes every instance, and is done once each is gone (remove succeeded and its node reported without it since)', () => {
    const l = cluster('formed');
    expect(planDeleteStep('stop-instances', { instances: l, removal: new Map() })).toEqual({
      actions: ['p0', 'r0', 'p1', 'r1'].map((id) => ({ kind: 'remove', instanceId: id })),
      verdict: { kind: 'wait', detail: '0 of 4 removed; waiting on n0, n1', fraction: 0 },
    });
    // p0 is gone; r0's removal succeeded but its node has not reported since; the rest are still there.
    for (const i of l) if (i.id === 'p0' || i.id === 'r0') i.obs = null;
    l.find((i) => i.id === 'r0')!.nodeReportedAt = NOW - 1000;
    const removal = new Map([['p0', succeeded(500)], ['r0', succeeded(500)]]);
    expect(planDeleteStep('stop-instances', { instances: l, removal })).toEqual({
      actions: ['r0', 'p1', 'r1'].map((id) => ({ kind: 'remove', instanceId: id })),
      verdict: { kind: 'wait', detail: '1 of 4 removed; waiting on n1, n0', fraction: 0.25 },
    });
    for (const i of l) { i.obs = null; i.nodeReportedAt = NOW; }
    const all = new Map(l.map((i) => [i.id, succeeded(500)]));
    expect(planDeleteStep('stop-instances', { instances: l, removal: all })).toEqual({ actions: [], verdict: { kind: 'done', detail: '4 instances removed' } });
    expect(planDeleteStep('remove-records', { instances: l, removal: all })).toEqual({ actions: [], verdict: { kind: 'done' } });
  });
});

describe('planDeleteStep with a node down', () => {
  it('does not wait for the down node: its instances are left to it (remove queued for its return), the rest removed', () => {
    const l = cluster('formed');
    for (const i of l) if (i.nodeName === 'n1') { i.nodeDown = true; i.nodeReportedAt = NOW - 60_000; }
    const plan = planDeleteStep('stop-instances', { instances: l, removal: new Map() });
    expect(plan.actions).toEqual(['p0', 'r0', 'p1', 'r1'].map((id) => ({ kind: 'remove', instanceId: id })));
    expect(plan.verdict).toEqual({ kind: 'wait', detail: '2 of 4 removed; waiting on n0', fraction: 0.5 });
    for (const i of l) if (i.nodeName === 'n0') i.obs = null;
    const removal = new Map(l.filter((i) => i.nodeName === 'n0').map((i) => [i.id, succeeded(500)]));
    expect(planDeleteStep('stop-instances', { instances: l, removal })).toEqual({
      actions: ['r0', 'p1'].map((id) => ({ kind: 'remove', instanceId: id })),
      verdict: { kind: 'done', detail: '2 instances removed; 2 on down node n1 removed when it reports again' },
    });
  });
});

describe('planSwitchoverStep', () => {
  it('asks the chosen replica to take over until it serves the slots', () => {
    const l = cluster('formed');
    expect(planSwitchoverStep({ instances: l, targetInstanceId: 'r1' })).toEqual({
      actions: [{ kind: 'switchover-to', shard: 1, instanceId: 'r1' }], verdict: { kind: 'wait', detail: 'waiting for the replica to catch up and take over' },
    });
    l.find((i) => i.id === 'r1')!.obs = { process: 'running', view: view({ myId: 'R1', role: 'primary', configEpoch: 3 }) };
    expect(planSwitchoverStep({ instances: l, targetInstanceId: 'r1' })).toEqual({ actions: [], verdict: { kind: 'done', detail: '10.0.0.1:7001 is the primary' } });
  });
  it('fails when the replica is gone', () => {
    expect(planSwitchoverStep({ instances: cluster('formed'), targetInstanceId: 'x' }).verdict).toMatchObject({ kind: 'failed', code: 'instance_gone' });
  });
});

describe('planCreateStep load-data (a restore into another layout)', () => {
  const base: CreateInput = { instances: [], form: null, endpointServed: null, now: 0, reformAfterMs: 1000 };
  const task = (state: TaskView['state']): TaskView => ({ state, updatedAt: 0 });

  it('hands out a task per backup file not loaded yet and shows each file\'s progress', () => {
    const plan = planCreateStep('load-data', {
      ...base,
      restore: [
        { backupShard: 0, round: 0, task: task('succeeded'), earlierRunning: false, done: 100, total: 100 },
        { backupShard: 1, round: 0, task: task('leased'), earlierRunning: false, done: 50, total: 200 },
        { backupShard: 2, round: 0, task: null, earlierRunning: false, done: 0, total: null },
      ],
    });
    expect(plan.actions).toEqual([{ kind: 'restore-keys', backupShard: 1, round: 0 }, { kind: 'restore-keys', backupShard: 2, round: 0 }]);
    expect(plan.verdict).toEqual({ kind: 'wait', detail: 'shard 0: done (100 keys), shard 1: 50/200 keys, shard 2: starting', fraction: 0.5 });
  });

  it('is done once every file\'s task succeeded (a failed one is handed out again; the applier counts its attempts)', () => {
    expect(planCreateStep('load-data', { ...base, restore: [{ backupShard: 0, round: 0, task: task('failed'), earlierRunning: false, done: 3, total: 10 }] }).actions).toEqual([{ kind: 'restore-keys', backupShard: 0, round: 0 }]);
    expect(planCreateStep('load-data', { ...base, restore: [{ backupShard: 0, round: 0, task: task('succeeded'), earlierRunning: false, done: 10, total: 10 }] }).verdict)
      .toEqual({ kind: 'done', detail: '1 backup file(s) loaded: shard 0: done (10 keys)' });
  });

  it('moves every file again in a new round (an engine restarted or failed over), each once its earlier move ended', () => {
    // Round 1: shard 0's round-0 move finished before the restart (no task of this round yet); shard 1's still runs.
    const plan = planCreateStep('load-data', {
      ...base,
      restore: [
        { backupShard: 0, round: 1, task: null, earlierRunning: false, done: 0, total: null },
        { backupShard: 1, round: 1, task: null, earlierRunning: true, done: 0, total: null },
      ],
    });
    expect(plan.actions).toEqual([{ kind: 'restore-keys', backupShard: 0, round: 1 }]);
    expect(plan.verdict).toMatchObject({ kind: 'wait', detail: 'loading again, round 2 (an engine of the new cluster restarted or failed over during the load): shard 0: starting, shard 1: waiting for its earlier move to end' });
    // Not done while a file waits for its earlier move, even with no action to hand out.
    const waiting = planCreateStep('load-data', { ...base, restore: [
      { backupShard: 0, round: 1, task: task('succeeded'), earlierRunning: false, done: 10, total: 10 },
      { backupShard: 1, round: 1, task: null, earlierRunning: true, done: 0, total: null },
    ] });
    expect(waiting.actions).toEqual([]);
    expect(waiting.verdict.kind).toBe('wait');
    // Engines that keep crashing: the restore fails with the reason instead of loading again forever.
    expect(planCreateStep('load-data', { ...base, restore: [{ backupShard: 0, round: MAX_LOAD_ROUNDS + 1, task: null, earlierRunning: false, done: 0, total: null }] }))
      .toMatchObject({ actions: [], verdict: { kind: 'failed', code: 'restore_engines_unstable', message: expect.stringContaining(`${MAX_LOAD_ROUNDS + 1} times during the load`) } });
    expect(planCreateStep('load-data', { ...base, restore: [{ backupShard: 0, round: 1, task: task('succeeded'), earlierRunning: false, done: 10, total: 10 }] }).verdict)
      .toEqual({ kind: 'done', detail: '1 backup file(s) loaded in round 2 (an engine of the new cluster restarted or failed over during the load): shard 0: done (10 keys)' });
  });
});
