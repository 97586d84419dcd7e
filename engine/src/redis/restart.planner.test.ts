import { describe, expect, it } from 'vitest';
import type { ObservedClusterView } from '../domain';
import type { OpInstance, TaskView } from './operation.planner';
import { FRESH_AFTER_MS, planRestartStep, restartOrder, type RestartTaskRef } from './restart.planner';

const NOW = 1_000_000;
const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 4, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 8192 : 0,
  openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
const primaryView = (s: number, id = `P${s}`) => view({ myId: id, role: 'primary' });
const replicaView = (id: string, of: string, over: Partial<ObservedClusterView> = {}) => view({ myId: id, role: 'replica', primaryId: of, primaryLinkUp: true, ...over });

/** A healthy 2x1 cluster: p<s> primary, r<s> its replica. */
function cluster(): OpInstance[] {
  return [0, 1].flatMap((s) => (['p', 'r'] as const).map((k) => ({
    id: `${k}${s}`, shard: s, role: k === 'p' ? 'primary' as const : 'replica' as const, engineId: k === 'p' ? `P${s}` : `R${s}`,
    label: `10.0.0.${s}:700${k === 'p' ? 0 : 1}`, nodeName: `n${k === 'p' ? s : 1 - s}`,
    obs: { process: 'running' as const, view: k === 'p' ? primaryView(s) : replicaView(`R${s}`, `P${s}`) }, crashed: false, nodeReportedAt: NOW,
  })));
}

const key = (r: RestartTaskRef) => `${r.kind}:${r.instanceId}`;
const plan = (instances: OpInstance[], tasks: Record<string, TaskView> = {}) =>
  planRestartStep({ instances, order: restartOrder(instances), task: (r) => tasks[key(r)] ?? null });
const set = (l: OpInstance[], id: string, patch: Partial<OpInstance>) => Object.assign(l.find((i) => i.id === id)!, patch);
const succeededAt = (at: number): TaskView => ({ state: 'succeeded', updatedAt: at });

describe('restartOrder', () => {
  it('per shard in order: replicas first, then the primary', () => {
    expect(restartOrder(cluster())).toEqual(['r0', 'p0', 'r1', 'p1']);
    expect(restartOrder([{ id: 'b', shard: 1, role: 'primary' }, { id: 'a', shard: 0, role: 'primary' }])).toEqual(['a', 'b']);
  });
});

describe('planRestartStep', () => {
  it('restarts the first replica, then waits for a fresh report showing it back in sync', () => {
    const l = cluster();
    expect(plan(l)).toEqual({
      actions: [{ kind: 'restart-running', shard: 0, instanceId: 'r0' }],
      verdict: { kind: 'wait', detail: 'restarting 10.0.0.0:7001 on n1, Shard 1 (1 of 4)', fraction: 0 },
    });
    // Task done, but the last report predates it: not counted yet, nothing asked again.
    const tasks = { 'restart-running:r0': succeededAt(NOW - 500) };
    expect(plan(l, tasks)).toEqual({ actions: [], verdict: { kind: 'wait', detail: '10.0.0.0:7001 restarted; waiting for it to rejoin and sync from its primary (1 of 4)', fraction: 0 } });
    // A fresh report, but it is still in its full sync.
    set(l, 'r0', { nodeReportedAt: NOW - 500 + FRESH_AFTER_MS, obs: { process: 'running', view: replicaView('R0', 'P0', { syncInProgress: true }) } });
    expect(plan(l, tasks).actions).toEqual([]);
    // In sync: the shard's primary hands over to it.
    set(l, 'r0', { obs: { process: 'running', view: replicaView('R0', 'P0') } });
    expect(plan(l, tasks)).toEqual({
      actions: [{ kind: 'switchover-to', shard: 0, instanceId: 'r0' }],
      verdict: { kind: 'wait', detail: 'Shard 1: handing the primary role from 10.0.0.0:7000 to 10.0.0.0:7001 (no acknowledged write lost) before restarting it', fraction: 0.25 },
    });
  });

  it('restarts the old primary once it follows the new one and the roles are recorded', () => {
    const l = cluster();
    const tasks: Record<string, TaskView> = { 'restart-running:r0': succeededAt(NOW - 5000), 'switchover-to:r0': succeededAt(NOW - 1000) };
    // Switched, not yet recorded: roles disagree with the records, so the roll waits (healing records them).
    set(l, 'r0', { obs: { process: 'running', view: primaryView(0, 'R0') } });
    set(l, 'p0', { obs: { process: 'running', view: replicaView('P0', 'R0') } });
    expect(plan(l, tasks)).toMatchObject({ actions: [], verdict: { kind: 'wait' } });
    set(l, 'r0', { role: 'primary', engineId: 'R0' });
    set(l, 'p0', { role: 'replica' });
    expect(plan(l, tasks).actions).toEqual([{ kind: 'restart-running', shard: 0, instanceId: 'p0' }]);
  });

  it('pauses while another member is not healthy (a failover elsewhere), and never restarts a second instance meanwhile', () => {
    const l = cluster();
    set(l, 'p1', { obs: { process: 'crashed', view: null } });
    expect(plan(l)).toEqual({
      actions: [],
      verdict: { kind: 'wait', detail: 'paused: 10.0.0.1:7000 (Shard 2) not healthy; the restart goes on once the cluster is healthy again', fraction: 0 },
    });
  });

  it('stops with node_down once a node holding a copy is down (only silent, it pauses)', () => {
    const l = cluster();
    set(l, 'r1', { obs: null, nodeReportedAt: NOW - 8000 });
    expect(plan(l).verdict.kind).toBe('wait');
    set(l, 'r1', { nodeDown: true });
    expect(plan(l)).toEqual({
      actions: [],
      verdict: {
        kind: 'failed', code: 'node_down',
        message: 'node n0 went down during the rolling restart; it held 10.0.0.1:7001 (Shard 2 replica). Healing rebuilds those copies elsewhere with fresh engines; ask for the restart again once the cluster is ready to restart the others.',
      },
    });
  });

  it('waits for an in-sync replica before a primary hands over', () => {
    const l = cluster();
    const tasks = { 'restart-running:r0': succeededAt(NOW - 5000) };
    set(l, 'r0', { obs: { process: 'running', view: replicaView('R0', 'P0', { primaryLinkUp: false }) } });
    // r0 is restarted but not healthy: the roll waits on it rather than handing over.
    expect(plan(l, tasks).actions).toEqual([]);
  });

  it('a shard without replicas restarts its primary in place; every instance done is done', () => {
    const l = cluster().filter((i) => i.role === 'primary');
    for (const i of l) i.obs = { process: 'running', view: { ...i.obs!.view!, knownNodes: 2 } };
    expect(plan(l).actions).toEqual([{ kind: 'restart-running', shard: 0, instanceId: 'p0' }]);
    const all = Object.fromEntries(l.map((i) => [`restart-running:${i.id}`, succeededAt(NOW - 5000)]));
    expect(plan(l, all)).toEqual({ actions: [], verdict: { kind: 'done', detail: '2 instance(s) restarted' } });
  });
});
