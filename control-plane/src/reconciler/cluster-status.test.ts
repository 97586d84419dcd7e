/** The one status function: phase per situation, conditions merged by type. */
import { describe, expect, it } from 'vitest';
import type { Condition } from '@strata/api';
import { deriveStatus, statusChanged, writeStatus, type StatusInput } from './cluster-status';

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-01-01T00:01:00.000Z';
const cond = (type: string, status: Condition['status'], message = `${type} ${status}`, at = T1): Condition => ({ type, status, reason: status === 'true' ? 'Ok' : 'Bad', message, lastTransitionAt: at });
const healthyConds = [cond('NodesReporting', 'true'), cond('InstancesRunning', 'true'), cond('ClusterHealthy', 'true')];
const degradedConds = [cond('NodesReporting', 'true'), cond('InstancesRunning', 'false'), cond('ClusterHealthy', 'false')];
const stored = (phase: StatusInput['stored']['phase'], conditions: Condition[] = [], generation = 2, observedGeneration = 1): StatusInput['stored'] =>
  ({ phase, conditions, generation, observedGeneration });
const ready = { phase: 'ready' as const, conditions: healthyConds };
const degraded = { phase: 'degraded' as const, conditions: degradedConds };
const error = { code: 'task_failed', message: 'it broke' };

describe('deriveStatus: phase per situation', () => {
  const table: { name: string; input: Omit<StatusInput, 'now'>; phase: string | null; observed?: boolean; types?: string[] }[] = [
    { name: 'nothing runs, nothing observed: nothing to decide', input: { stored: stored('ready'), operation: null, health: null }, phase: null },
    { name: 'first reports awaited: the stored status stands', input: { stored: stored('ready'), operation: null, health: { phase: 'unknown', conditions: [] } }, phase: null },
    { name: 'observed healthy', input: { stored: stored('degraded'), operation: null, health: ready }, phase: 'ready', observed: true, types: ['NodesReporting', 'InstancesRunning', 'ClusterHealthy'] },
    { name: 'observed degraded', input: { stored: stored('ready'), operation: null, health: degraded }, phase: 'degraded', observed: false },
    { name: 'create starts', input: { stored: stored('provisioning'), operation: { kind: 'create-cluster', state: 'pending' }, health: null }, phase: 'provisioning', observed: false, types: [] },
    { name: 'create succeeds', input: { stored: stored('provisioning'), operation: { kind: 'create-cluster', state: 'succeeded' }, health: ready }, phase: 'ready', observed: true },
    { name: 'create fails: failed, with why and what is observed', input: { stored: stored('provisioning'), operation: { kind: 'create-cluster', state: 'failed', error }, health: degraded }, phase: 'failed', types: ['Provisioned', 'NodesReporting', 'InstancesRunning', 'ClusterHealthy'] },
    { name: 'update runs: updating, conditions kept', input: { stored: stored('ready', healthyConds), operation: { kind: 'update-cluster', state: 'running' }, health: null }, phase: 'updating', types: ['NodesReporting', 'InstancesRunning', 'ClusterHealthy'] },
    { name: 'update succeeds', input: { stored: stored('updating', healthyConds), operation: { kind: 'update-cluster', state: 'succeeded' }, health: ready }, phase: 'ready', observed: true },
    { name: 'update cancelled and rolled back', input: { stored: stored('updating', healthyConds), operation: { kind: 'update-cluster', state: 'cancelled' }, health: ready }, phase: 'ready', observed: true },
    { name: 'update fails: degraded, observed conditions kept beside Updated', input: { stored: stored('updating', healthyConds), operation: { kind: 'update-cluster', state: 'failed', error }, health: null }, phase: 'degraded', types: ['Updated', 'NodesReporting', 'InstancesRunning', 'ClusterHealthy'] },
    { name: 'switchover runs: the phase stays', input: { stored: stored('ready', healthyConds), operation: { kind: 'switchover', state: 'running' }, health: null }, phase: 'ready' },
    { name: 'switchover succeeds: what is observed', input: { stored: stored('ready', healthyConds), operation: { kind: 'switchover', state: 'succeeded' }, health: degraded }, phase: 'degraded', observed: false },
    { name: 'switchover fails', input: { stored: stored('ready', healthyConds), operation: { kind: 'switchover', state: 'failed', error }, health: ready }, phase: 'degraded', types: ['Switchover', 'NodesReporting', 'InstancesRunning', 'ClusterHealthy'] },
    { name: 'delete runs: deleting, no conditions', input: { stored: stored('ready', healthyConds), operation: { kind: 'delete-cluster', state: 'pending' }, health: null }, phase: 'deleting', types: [] },
    { name: 'delete fails', input: { stored: stored('deleting'), operation: { kind: 'delete-cluster', state: 'failed', error }, health: degraded }, phase: 'failed', types: ['Deleted'] },
    { name: 'delete succeeds: the row is gone, nothing to write', input: { stored: stored('deleting'), operation: { kind: 'delete-cluster', state: 'succeeded' }, health: null }, phase: null },
  ];
  it.each(table)('$name', ({ input, phase, observed, types }) => {
    const s = deriveStatus({ ...input, now: () => T1 });
    if (phase === null) return expect(s).toBeNull();
    expect(s?.phase).toBe(phase);
    if (observed !== undefined) expect(s?.observed).toBe(observed);
    if (types) expect(s?.conditions.map((c) => c.type)).toEqual(types);
  });

  it('a failure says why in its condition', () => {
    const s = deriveStatus({ stored: stored('updating', healthyConds), operation: { kind: 'update-cluster', state: 'failed', error }, health: null, now: () => T1 })!;
    expect(s.conditions.find((c) => c.type === 'Updated')).toEqual({ type: 'Updated', status: 'false', reason: 'task_failed', message: 'it broke', lastTransitionAt: T1 });
  });
});

describe('deriveStatus: lastTransitionAt', () => {
  it('kept when a condition keeps its status (even with a new message), changed when its status changes', () => {
    const before = [cond('NodesReporting', 'true', 'all', T0), cond('InstancesRunning', 'true', '6 of 6', T0), cond('ClusterHealthy', 'true', 'ok', T0)];
    const after = [cond('NodesReporting', 'true', 'all still'), cond('InstancesRunning', 'false', '5 of 6'), cond('ClusterHealthy', 'true', 'ok')];
    const s = deriveStatus({ stored: stored('ready', before), operation: null, health: { phase: 'degraded', conditions: after }, now: () => T1 })!;
    expect(s.conditions.map((c) => [c.type, c.lastTransitionAt])).toEqual([['NodesReporting', T0], ['InstancesRunning', T1], ['ClusterHealthy', T0]]);
    expect(s.conditions[0]!.message).toBe('all still');
  });

  it('a failed operation keeps the observed conditions and their times', () => {
    const before = [cond('ClusterHealthy', 'true', 'ok', T0)];
    const s = deriveStatus({ stored: stored('updating', before), operation: { kind: 'update-cluster', state: 'failed', error }, health: null, now: () => T1 })!;
    expect(s.conditions).toEqual([{ type: 'Updated', status: 'false', reason: 'task_failed', message: 'it broke', lastTransitionAt: T1 }, before[0]]);
  });

  it('a condition that went away and came back starts a new transition', () => {
    const s = deriveStatus({ stored: stored('ready', [cond('ClusterHealthy', 'true', 'ok', T0)]), operation: null, health: { phase: 'degraded', conditions: [cond('ClusterHealthy', 'true', 'ok'), cond('Healing', 'true', 'doing')] }, now: () => T1 })!;
    expect(s.conditions.find((c) => c.type === 'Healing')?.lastTransitionAt).toBe(T1);
  });
});

describe('writeStatus', () => {
  it('writes only what changed; an unchanged status is not written again', async () => {
    const writes: unknown[] = [];
    const clusters = { setStatus: async (_id: string, s: unknown) => { writes.push(s); } };
    const conds = [cond('NodesReporting', 'true', 'all', T0)];
    await writeStatus(clusters, 'c', { stored: stored('ready', conds, 2, 2), operation: null, health: { phase: 'ready', conditions: [cond('NodesReporting', 'true', 'all')] } });
    expect(writes).toEqual([]);
    // Same phase and conditions, but the spec moved on: observedGeneration follows.
    await writeStatus(clusters, 'c', { stored: stored('ready', conds, 3, 2), operation: null, health: { phase: 'ready', conditions: [cond('NodesReporting', 'true', 'all')] } });
    expect(writes).toHaveLength(1);
    expect(statusChanged(stored('ready', conds, 2, 2), { phase: 'degraded', conditions: conds, observed: false })).toBe(true);
  });
});
