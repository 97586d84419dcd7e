import { describe, expect, it } from 'vitest';
import type { MigrationProgress, ObservedClusterView } from '../domain';
import type { OpInstance } from './operation.planner';
import { planMigrateStep, shardPrimary, type MigrateInput, type MigrateRun } from './migrate.planner';
import { planSlots } from './slots.planner';
import { planSlotTargets } from './topology.planner';

const NOW = 1_000_000;
const two = planSlots(2).map((r) => [r]);
const three = planSlotTargets(two, 3).target;
const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 6, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: 0,
  openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
const inst = (id: string, shard: number, role: 'primary' | 'replica', v: ObservedClusterView | null): OpInstance => ({
  id, shard, role, engineId: v?.myId ?? id.toUpperCase(), label: id, nodeName: 'n', obs: v ? { process: 'running', view: v } : { process: 'crashed', view: null }, crashed: !v, nodeReportedAt: NOW,
});
/** 2 -> 3 shards; p2/r2 are new (p2 met the cluster); slot counts as the primaries report them. */
function cluster(owned: [number, number, number] = [8192, 8192, 0]): OpInstance[] {
  return [
    inst('p0', 0, 'primary', view({ myId: 'P0', role: 'primary', slotsOwned: owned[0] })), inst('r0', 0, 'replica', view({ myId: 'R0', role: 'replica', primaryId: 'P0' })),
    inst('p1', 1, 'primary', view({ myId: 'P1', role: 'primary', slotsOwned: owned[1] })), inst('r1', 1, 'replica', view({ myId: 'R1', role: 'replica', primaryId: 'P1' })),
    inst('p2', 2, 'primary', view({ myId: 'P2', role: 'primary', slotsOwned: owned[2] })), inst('r2', 2, 'replica', view({ myId: 'R2', role: 'replica', primaryId: 'P2' })),
  ];
}
const stats = (done: number): MigrationProgress => ({ slotsDone: done, slotsTotal: 5462, keysMoved: 10, bytesMoved: 100, keysPerSec: 5, etaSeconds: 3, currentSlot: null });
const run = (state: MigrateRun['state'], ageMs = 100, result: MigrateRun['result'] = null, error: string | null = null): MigrateRun => ({ state, updatedAt: NOW - ageMs, error, result });
const input = (over: Partial<MigrateInput> = {}): MigrateInput => ({
  rollback: false, target: three, added: ['p2', 'r2'], instances: cluster(), met: () => true, latest: null, failures: 0, stats: null, shown: null, paused: false,
  startedAt: NOW - 10_000, now: NOW, headlessWaitMs: 30_000, migrateRetryBaseMs: 500, migrateReportWaitMs: 4000, ...over,
});
const counts = three.map((r) => r.reduce((n, x) => n + x.end - x.start + 1, 0)) as [number, number, number];

describe('planMigrateStep', () => {
  it('hands a run to shard 0\'s primary: every slot to its target, every live primary gets the final SETSLOT', () => {
    const p = planMigrateStep(input());
    expect(p.verdict).toEqual({ kind: 'wait', detail: 'starting', fraction: 0 });
    expect(p.actions).toEqual([{
      kind: 'migrate', rollback: false, runnerInstanceId: 'p0', primaries: ['p0', 'p1', 'p2'],
      targets: [{ instanceId: 'p0', slots: three[0], shardEngineIds: ['R0'] }, { instanceId: 'p1', slots: three[1], shardEngineIds: ['R1'] }, { instanceId: 'p2', slots: three[2], shardEngineIds: ['R2'] }],
    }]);
  });

  it('while a run is out: records its progress and waits', () => {
    expect(planMigrateStep(input({ latest: run('leased'), stats: stats(100), shown: stats(50) }))).toEqual({
      actions: [{ kind: 'record-progress', stats: stats(100) }], verdict: { kind: 'wait', detail: '100/5462 slots, 10 keys moved, 5 keys/s, ETA 3s', fraction: 100 / 5462 },
    });
  });

  it('paused: waits with every slot owned once', () => {
    expect(planMigrateStep(input({ latest: run('succeeded', 100, { complete: false, slotsMoved: 10, keysMoved: 1 }), paused: true })).verdict)
      .toEqual({ kind: 'wait', detail: 'paused at starting; every slot has one owner', fraction: 0 });
  });

  it('done when the run completed and the primaries own their targets (by report, or by the run\'s own end state)', () => {
    const complete = { complete: true, slotsMoved: 5462, keysMoved: 9 };
    expect(planMigrateStep(input({ instances: cluster(counts), latest: run('succeeded', 100, complete) })).verdict).toEqual({ kind: 'done', detail: '5462 slots, 9 keys moved' });
    const final = [{ instanceId: 'p0', slotsOwned: counts[0], openSlots: 0 }, { instanceId: 'p1', slotsOwned: counts[1], openSlots: 0 }, { instanceId: 'p2', slotsOwned: counts[2], openSlots: 0 }];
    expect(planMigrateStep(input({ latest: run('succeeded', 100, { ...complete, final }) })).verdict).toEqual({ kind: 'done', detail: '5462 slots, 9 keys moved' });
    // Complete, but neither the reports nor the run show it yet: wait for the reports a while.
    expect(planMigrateStep(input({ latest: run('succeeded', 100, complete) })).verdict).toEqual({ kind: 'wait', detail: 'waiting for every node to report the new slot map', fraction: 0.99 });
  });

  it('a shard without a primary (its primary died, not promoted yet): waits without spending an attempt, then fails', () => {
    const l = cluster();
    l[2] = inst('p1', 1, 'primary', null);
    l[3] = inst('r1', 1, 'replica', view({ myId: 'R1', role: 'replica', primaryId: 'P1', primaryLinkUp: false }));
    expect(planMigrateStep(input({ instances: l, latest: run('failed', 1000, null, 'boom') })).verdict)
      .toEqual({ kind: 'wait', detail: 'starting; waiting for shard 2 to have a primary again (failover)', fraction: 0 });
    expect(planMigrateStep(input({ instances: l, latest: run('failed', 31_000, null, 'boom') })).verdict).toMatchObject({ kind: 'failed', code: 'shard_without_primary' });
    // Its replica promoted: it is the shard's primary now (whatever the stored roles say).
    l[3] = inst('r1', 1, 'replica', view({ myId: 'R1', role: 'primary', configEpoch: 5, slotsOwned: 8192 }));
    expect(shardPrimary(l, 1)?.id).toBe('r1');
  });

  it('failed runs are retried with growing spacing, five at most', () => {
    expect(planMigrateStep(input({ latest: run('failed', 600, null, 'MOVED'), failures: 2 })).verdict)
      .toEqual({ kind: 'wait', detail: 'starting; attempt 2 of 5 failed (MOVED), trying again in 0.4 s', fraction: 0 });
    expect(planMigrateStep(input({ latest: run('failed', 1100, null, 'MOVED'), failures: 2 })).actions.map((a) => a.kind)).toEqual(['migrate']);
    expect(planMigrateStep(input({ latest: run('failed', 10_000, null, 'MOVED'), failures: 5 })).verdict).toMatchObject({ kind: 'failed', code: 'migration_failed' });
  });

  it('a new primary that has not met the cluster yet is not a target: wait', () => {
    expect(planMigrateStep(input({ met: () => false })).verdict).toEqual({ kind: 'wait', detail: 'waiting for every target primary to run and be a member', fraction: 0 });
  });
});
