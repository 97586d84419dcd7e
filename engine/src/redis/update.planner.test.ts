import { describe, expect, it } from 'vitest';
import type { ObservedClusterView } from '../domain';
import type { OpInstance, TaskView } from './operation.planner';
import { planConfigure, planFinish, planJoinInstances, planRemoveInstances, planStartInstances, type UpdateInput, type UpdateTaskRef } from './update.planner';
import { planSlots } from './slots.planner';
import { planSlotTargets, type TopologySpec } from './topology.planner';

const NOW = 1_000_000;
const spec = (s: Partial<TopologySpec> = {}): TopologySpec => ({ shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'none', evictionPolicy: 'noeviction', ...s });
const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 4, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 8192 : 0,
  openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
const inst = (id: string, shard: number, role: 'primary' | 'replica', v: ObservedClusterView | null, over: Partial<OpInstance> = {}): OpInstance => ({
  id, shard, role, engineId: v?.myId ?? null, label: `${id}:7000`, nodeName: `n-${id}`,
  obs: v ? { process: 'running', view: v } : null, crashed: false, nodeReportedAt: NOW, ...over,
});
/** A 2x1 cluster (p0 r0 p1 r1) growing a shard 2 (p2 r2, not started yet). */
const growing = (): OpInstance[] => [
  inst('p0', 0, 'primary', view({ myId: 'P0', role: 'primary' })), inst('r0', 0, 'replica', view({ myId: 'R0', role: 'replica', primaryId: 'P0', primaryLinkUp: true })),
  inst('p1', 1, 'primary', view({ myId: 'P1', role: 'primary' })), inst('r1', 1, 'replica', view({ myId: 'R1', role: 'replica', primaryId: 'P1', primaryLinkUp: true })),
  inst('p2', 2, 'primary', null), inst('r2', 2, 'replica', null),
];
const key = (t: UpdateTaskRef) => JSON.stringify(t);
function input(instances: OpInstance[], over: Partial<UpdateInput> = {}, tasks: [UpdateTaskRef, TaskView][] = []): UpdateInput {
  const map = new Map(tasks.map(([t, v]) => [key(t), v]));
  const two = planSlots(2).map((r) => [r]);
  return {
    from: spec(), to: spec({ shards: 3 }), originalSlots: two, targetSlots: planSlotTargets(two, 3).target, added: ['p2', 'r2'], removed: [],
    instances, task: (t) => map.get(key(t)) ?? null, now: NOW, forgetWaitMs: 60_000, ...over,
  };
}
const ok = (ageMs = 100): TaskView => ({ state: 'succeeded', updatedAt: NOW - ageMs });
const set = (l: OpInstance[], id: string, patch: Partial<OpInstance>) => { Object.assign(l.find((i) => i.id === id)!, patch); return l; };

describe('update shards 2 -> 3', () => {
  it('start: the new instances are started with the new settings', () => {
    expect(planStartInstances(input(growing()))).toEqual({
      actions: [{ kind: 'start', shard: 2, instanceId: 'p2', settings: spec({ shards: 3 }) }, { kind: 'start', shard: 2, instanceId: 'r2', settings: spec({ shards: 3 }) }],
      verdict: { kind: 'wait', detail: '0 of 2 new instances running', fraction: 0 },
    });
  });

  it('start: one that started and crashed since is left to its agent (never restarted empty here)', () => {
    const l = set(growing(), 'p2', { obs: { process: 'crashed', view: null }, crashed: true });
    set(l, 'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'primary', state: 'fail', knownNodes: 1, slotsOwned: 0 }) } });
    expect(planStartInstances(input(l, {}, [[{ kind: 'start', instanceId: 'p2' }, ok()]]))).toEqual({ actions: [], verdict: { kind: 'done', detail: '2 new instance(s) running' } });
    // Never started: it is started.
    expect(planStartInstances(input(set(growing(), 'r2', { obs: { process: 'running', view: null } }))).actions).toEqual([{ kind: 'start', shard: 2, instanceId: 'p2', settings: spec({ shards: 3 }) }]);
  });

  it('start: one that started while its node has not reported lately is not started again (unknown is no reason)', () => {
    const l = set(growing(), 'p2', { nodeReportedAt: NOW - 6000 });
    set(l, 'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'replica', primaryId: 'P2', primaryLinkUp: true, slotsOwned: 0 }) } });
    const started: [UpdateTaskRef, TaskView][] = [[{ kind: 'start', instanceId: 'p2' }, ok(10_000)]];
    expect(planStartInstances(input(l, {}, started))).toEqual({ actions: [], verdict: { kind: 'done', detail: '2 new instance(s) running' } });
    // Its node reports and does not list it: the agent lost it, it is started again.
    set(l, 'p2', { nodeReportedAt: NOW - 500 });
    expect(planStartInstances(input(l, {}, started)).actions).toEqual([{ kind: 'start', shard: 2, instanceId: 'p2', settings: spec({ shards: 3 }) }]);
  });

  it('join: the new primary meets the cluster through a running primary, then its replica follows it until in sync', () => {
    const l = set(set(growing(), 'p2', { obs: { process: 'running', view: view({ myId: 'P2', role: 'primary', state: 'fail', knownNodes: 1, slotsOwned: 0 }) }, engineId: 'P2' }),
      'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'primary', state: 'fail', knownNodes: 1, slotsOwned: 0 }) } });
    expect(planJoinInstances(input(l))).toEqual({
      actions: [{ kind: 'remember-ids', instanceIds: ['p2', 'r2'] }, { kind: 'meet', instanceId: 'p2', seedInstanceId: 'p0' }],
      verdict: { kind: 'wait', detail: '0 of 1 new primaries joined; 0 of 1 new replicas in sync', fraction: 0 },
    });
    const met: [UpdateTaskRef, TaskView][] = [[{ kind: 'meet', instanceId: 'p2' }, ok()]];
    expect(planJoinInstances(input(l, {}, met)).actions.slice(1)).toEqual([{ kind: 'join', shard: 2, instanceId: 'r2', primaryInstanceId: 'p2' }]);
    set(l, 'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'replica', primaryId: 'P2', primaryLinkUp: true }) } });
    expect(planJoinInstances(input(l, {}, met)).verdict).toEqual({ kind: 'done', detail: '1 primary joined, 1 replica(s) in sync' });
  });

  it('join: a new replica promoted since (its primary died) counts as joined; no running primary to meet: wait', () => {
    const l = set(set(growing(), 'p2', { obs: { process: 'crashed', view: null }, engineId: 'P2', crashed: true }),
      'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'primary' }) } });
    const tasks: [UpdateTaskRef, TaskView][] = [[{ kind: 'meet', instanceId: 'p2' }, ok()], [{ kind: 'join', instanceId: 'r2', primaryInstanceId: 'p2' }, ok()]];
    expect(planJoinInstances(input(l, {}, tasks)).verdict).toEqual({ kind: 'done', detail: '1 primary joined, 1 replica(s) in sync' });
    const headless = set(set(growing(), 'p0', { obs: null }), 'p1', { obs: { process: 'crashed', view: null } });
    expect(planJoinInstances(input(headless)).verdict).toEqual({ kind: 'wait', detail: 'waiting for a running primary to introduce new instances to' });
  });

  it('join: a replica joined once whose node has not reported lately is not asked again (it may have been promoted: REPLICATE would fail on its slots)', () => {
    const l = set(set(growing(), 'p2', { obs: { process: 'crashed', view: null }, engineId: 'P2', crashed: true }), 'r2', { obs: null });
    const tasks: [UpdateTaskRef, TaskView][] = [[{ kind: 'meet', instanceId: 'p2' }, ok()], [{ kind: 'join', instanceId: 'r2', primaryInstanceId: 'p2' }, ok(60_000)]];
    const plan = planJoinInstances(input(l, {}, tasks));
    expect(plan.actions.filter((a) => a.kind === 'join')).toEqual([]);
    expect(plan.verdict).toMatchObject({ kind: 'wait' });
    // Heard, still a replica of its dead primary in its last view (link down): not asked again either.
    set(l, 'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'replica', primaryId: 'P2', primaryLinkUp: false, linkDownSinceSec: 1 }) } });
    expect(planJoinInstances(input(l, {}, tasks)).actions.filter((a) => a.kind === 'join')).toEqual([]);
    // Heard again, a primary serving slots: it serves the shard, joined or not.
    set(l, 'r2', { obs: { process: 'running', view: view({ myId: 'R2', role: 'primary', slotsOwned: 1365 }) } });
    expect(planJoinInstances(input(l, {}, tasks.slice(0, 1))).verdict).toEqual({ kind: 'done', detail: '1 primary joined, 1 replica(s) in sync' });
  });

  it('finish records the new slot map; a rollback records the old one and the spec before', () => {
    const i = input(growing());
    expect(planFinish(i, false)).toEqual({ actions: [{ kind: 'record-topology', slots: i.targetSlots }], verdict: { kind: 'done' } });
    expect(planFinish(i, true)).toEqual({ actions: [{ kind: 'record-topology', slots: i.originalSlots, spec: spec() }], verdict: { kind: 'done', detail: 'the cluster is back at its previous spec' } });
  });
});

describe('update replicas 1 -> 0 (and a cancelled grow rolling back)', () => {
  const shrinking = () => growing().slice(0, 4);
  const removeReplicas = (l: OpInstance[], tasks: [UpdateTaskRef, TaskView][] = [], over: Partial<UpdateInput> = {}) =>
    input(l, { to: spec({ replicasPerShard: 0 }), added: [], removed: ['r0', 'r1'], targetSlots: planSlots(2).map((r) => [r]), ...over }, tasks);

  it('stops the removed instances, remembering their ids first', () => {
    expect(planRemoveInstances(removeReplicas(shrinking()), false)).toEqual({
      actions: [{ kind: 'remember-ids', instanceIds: ['r0', 'r1'] }, { kind: 'remove', instanceId: 'r0' }, { kind: 'remove', instanceId: 'r1' }],
      verdict: { kind: 'wait', detail: '0 of 2 stopped', fraction: 0 },
    });
  });

  it('4 -> 3 style removal: nothing of a removed shard is stopped, replicas included, while one of its copies owns a slot', () => {
    // shard 1 is removed (primary p1, replica r1); p1 still reports slots (its move not seen finished yet)
    const l = growing().slice(0, 4);
    const removing = input(l, { to: spec({ shards: 1 }), added: [], removed: ['p1', 'r1'], targetSlots: [planSlots(1)] });
    expect(planRemoveInstances(removing, false)).toEqual({
      actions: [{ kind: 'remember-ids', instanceIds: ['p1', 'r1'] }],
      verdict: { kind: 'wait', detail: 'waiting for p1:7000 (8192 slots) to own no slot before removing shard copies', fraction: 0 },
    });
    // its slots gone: primary and replica are stopped
    set(l, 'p1', { obs: { process: 'running', view: view({ myId: 'P1', role: 'primary', slotsOwned: 0 }) } });
    expect(planRemoveInstances(removing, false).actions.slice(1)).toEqual([{ kind: 'remove', instanceId: 'p1' }, { kind: 'remove', instanceId: 'r1' }]);
  });

  it('4 -> 3 style removal: the migration run\'s own end state stands for a report still on its way, not for a later one', () => {
    const l = growing().slice(0, 4);
    const removing = (migrated: UpdateInput['migrated']) => input(l, { to: spec({ shards: 1 }), added: [], removed: ['p1', 'r1'], targetSlots: [planSlots(1)], migrated });
    const stops = [{ kind: 'remove', instanceId: 'p1' }, { kind: 'remove', instanceId: 'r1' }];
    // p1's node last reported (8192 slots) before the run ended; the run read p1 owning nothing: stopped now
    const ran = { at: NOW + 500, final: [{ instanceId: 'p0', slotsOwned: 16384, openSlots: 0 }, { instanceId: 'p1', slotsOwned: 0, openSlots: 0 }] };
    expect(planRemoveInstances(removing(ran), false).actions.slice(1)).toEqual(stops);
    // the run read a slot still open on p1, or did not read p1: the report decides
    expect(planRemoveInstances(removing({ ...ran, final: [{ instanceId: 'p1', slotsOwned: 0, openSlots: 1 }] }), false).actions.slice(1)).toEqual([]);
    expect(planRemoveInstances(removing({ ...ran, final: [] }), false).actions.slice(1)).toEqual([]);
    // p1's node reported after the run, still owning slots: that report decides
    expect(planRemoveInstances(removing({ ...ran, at: NOW - 1 }), false).verdict).toMatchObject({ kind: 'wait', detail: expect.stringMatching(/p1:7000 \(8192 slots\)/) });
  });

  it('once stopped, every kept member forgets them; a member that is down is waited for, for a while', () => {
    const gone = set(set(shrinking(), 'r0', { obs: null }), 'r1', { obs: null });
    const stopped: [UpdateTaskRef, TaskView][] = [[{ kind: 'remove', instanceId: 'r0' }, ok(1000)], [{ kind: 'remove', instanceId: 'r1' }, ok(1000)]];
    expect(planRemoveInstances(removeReplicas(gone, stopped), false)).toEqual({
      actions: [{ kind: 'remember-ids', instanceIds: ['r0', 'r1'] }, { kind: 'forget', scope: 'remove-instances', keep: ['p0', 'p1'], lostInstanceIds: [] }],
      verdict: { kind: 'wait', detail: '2 stopped; every member forgets them (CLUSTER FORGET)', fraction: 0.9 },
    });
    const away = set(gone.map((i) => ({ ...i })), 'p1', { obs: { process: 'crashed', view: null }, crashed: true });
    expect(planRemoveInstances(removeReplicas(away, stopped), false).verdict).toEqual({ kind: 'wait', detail: '2 stopped; waiting for p1:7000 to run again so that every member forgets them', fraction: 0.85 });
    expect(planRemoveInstances(removeReplicas(away, stopped, { now: NOW + 60_000 }), false).actions.at(-1)).toEqual({ kind: 'forget', scope: 'remove-instances', keep: ['p0', 'p1'], lostInstanceIds: [] });
    const forgot: [UpdateTaskRef, TaskView][] = [...stopped, [{ kind: 'forget', scope: 'remove-instances' }, ok()]];
    expect(planRemoveInstances(removeReplicas(gone, forgot), false)).toEqual({
      actions: [{ kind: 'remember-ids', instanceIds: ['r0', 'r1'] }, { kind: 'drop-rows', instanceIds: ['r0', 'r1'] }],
      verdict: { kind: 'done', detail: '2 instance(s) stopped and forgotten' },
    });
  });

  it('a cancelled grow removes what it added', () => {
    expect(planRemoveInstances(input(growing()), true).actions).toEqual([
      { kind: 'remember-ids', instanceIds: ['p2', 'r2'] }, { kind: 'remove', instanceId: 'p2' }, { kind: 'remove', instanceId: 'r2' },
    ]);
  });
});

describe('update memory / durability / eviction', () => {
  const vertical = (over: Partial<TopologySpec>) => input(growing().slice(0, 4), { to: spec(over), added: [], removed: [], targetSlots: planSlots(2).map((r) => [r]) });
  it('configures every instance in place, and back on a cancel', () => {
    const i = vertical({ memoryMbPerShard: 128, durability: 'aof-everysec', evictionPolicy: 'allkeys-lru' });
    const p = planConfigure(i, false);
    expect(p.actions.map((a) => a.kind === 'configure' && [a.instanceId, a.settings.memoryMbPerShard, a.settings.durability, a.rollback])).toEqual([
      ['p0', 128, 'aof-everysec', false], ['r0', 128, 'aof-everysec', false], ['p1', 128, 'aof-everysec', false], ['r1', 128, 'aof-everysec', false],
    ]);
    expect(p.verdict).toEqual({ kind: 'wait', detail: '0 of 4 instances reconfigured', fraction: 0 });
    expect(planConfigure(i, true).actions.map((a) => a.kind === 'configure' && [a.settings.memoryMbPerShard, a.rollback])[0]).toEqual([64, true]);
  });
  it('done once each instance took its settings', () => {
    const i = vertical({ memoryMbPerShard: 128 });
    const done = new Map(['p0', 'r0', 'p1', 'r1'].map((id) => [key({ kind: 'configure', instanceId: id, rollback: false }), ok()]));
    expect(planConfigure({ ...i, task: (t) => done.get(key(t)) ?? null }, false)).toEqual({ actions: [], verdict: { kind: 'done', detail: '4 instance(s) reconfigured without restart' } });
  });
  it('does not wait for an instance on a down node (its task stays asked for), but does for one on a node only silent', () => {
    const i = vertical({ memoryMbPerShard: 128 });
    const done = new Map(['p0', 'r0', 'p1'].map((id) => [key({ kind: 'configure', instanceId: id, rollback: false }), ok()]));
    const down = { ...i, instances: set(i.instances.map((x) => ({ ...x })), 'r1', { nodeDown: true, obs: null }), task: (t: UpdateTaskRef) => done.get(key(t)) ?? null };
    const p = planConfigure(down, false);
    expect(p.actions.map((a) => a.kind === 'configure' && a.instanceId)).toEqual(['r1']);
    expect(p.verdict).toEqual({ kind: 'done', detail: '3 instance(s) reconfigured without restart; 1 on down node n-r1 not waited for (rebuilt elsewhere with these settings, or reconfigured if the node reports again)' });
    const silent = { ...down, instances: set(i.instances.map((x) => ({ ...x })), 'r1', { obs: null, nodeReportedAt: NOW - 8000 }) };
    expect(planConfigure(silent, false).verdict.kind).toBe('wait');
  });
});
