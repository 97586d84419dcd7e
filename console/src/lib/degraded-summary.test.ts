import { describe, expect, it } from 'vitest';
import type { ClusterEvent, Topology, TopologyInstance } from '@strata/api';
import { degradedSummary, recoveredSummary } from './degraded-summary';
import { shownRole } from './instance-role';

const inst = (id: string, node: string, role: 'primary' | 'replica', over: Partial<TopologyInstance> = {}): TopologyInstance => ({
  id, nodeId: `n-${node}`, nodeName: node, address: `127.0.0.1:${id}`, role, preferredRole: role, observedRole: role, health: 'healthy', sync: null, ...over,
});
const T0 = Date.parse('2026-11-26T10:00:00Z');
const failover = (shard: number): ClusterEvent => ({
  id: 'e1', clusterId: 'c', at: new Date(T0 + 1000).toISOString(), message: '', type: 'failover', shard, cause: 'process-crash',
  oldPrimary: { instanceId: '7001', address: '127.0.0.1:7001', nodeName: 'node-2' },
  newPrimary: { instanceId: '7002', address: '127.0.0.1:7002', nodeName: 'node-3' },
  detectedAt: new Date(T0).toISOString(), promotedAt: new Date(T0 + 150).toISOString(), clusterOkAt: new Date(T0 + 400).toISOString(), writeUnavailableMs: 400,
} as ClusterEvent);

describe('degradedSummary', () => {
  it("tells a killed primary's story in plain words, shards counted from 1", () => {
    const topology: Topology = { clusterId: 'c', shards: [
      { index: 0, slots: [], instances: [inst('7000', 'node-1', 'primary'), inst('7003', 'node-2', 'replica')] },
      { index: 1, slots: [], instances: [inst('7002', 'node-3', 'primary'), inst('7001', 'node-2', 'primary', { preferredRole: 'primary', health: 'down', observedRole: null })] },
    ] };
    expect(degradedSummary(topology, [failover(1)], 'degraded', T0 + 2000)).toEqual([
      "Shard 2's primary on node-2 crashed; node-3 took over 0.15 s later; the old primary is down; Strata restarts it as a replica.",
    ]);
  });
  it('a replica being rebuilt says how far it is; nothing for a ready cluster or an old failover', () => {
    const topology: Topology = { clusterId: 'c', shards: [
      { index: 2, slots: [], instances: [inst('7000', 'node-1', 'primary'), inst('7009', 'node-3', 'replica', { sync: { receivedBytes: 40, totalBytes: 100 } })] },
    ] };
    expect(degradedSummary(topology, [], 'degraded', T0)).toEqual(['Shard 3: rebuilding a replica on node-3: 40%.']);
    expect(degradedSummary(topology, [], 'ready', T0)).toEqual([]);
    const calm: Topology = { clusterId: 'c', shards: [{ index: 1, slots: [], instances: [inst('7002', 'node-3', 'primary')] }] };
    expect(degradedSummary(calm, [failover(1)], 'degraded', T0 + 10 * 60_000)).toEqual([]);
  });
});

describe('recoveredSummary', () => {
  it('a ready cluster still tells of a failover of the last two minutes, newest per shard, and forgets older ones', () => {
    const older = { ...failover(1), id: 'e0', at: new Date(T0).toISOString(), newPrimary: { instanceId: '7001', address: '127.0.0.1:7001', nodeName: 'node-9' } } as ClusterEvent;
    const newestFirst = [failover(1), older];
    expect(recoveredSummary(newestFirst, 'ready', T0 + 5000)).toEqual(["Shard 2's primary on node-2 crashed; node-3 took over 0.15 s later; healthy again."]);
    expect(recoveredSummary(newestFirst, 'ready', T0 + 1000 + 2 * 60_000)).toEqual([]);
    expect(recoveredSummary(newestFirst, 'degraded', T0 + 5000)).toEqual([]);
    expect(recoveredSummary(undefined, 'ready', T0)).toEqual([]);
  });
});

describe('shownRole: one role per instance', () => {
  it('a stopped primary is Down, not a second Primary; a restarting one is Starting; a running one shows what it reports', () => {
    expect(shownRole(inst('1', 'n', 'primary', { health: 'down' }), 'degraded').label).toBe('Down');
    expect(shownRole(inst('1', 'n', 'primary', { health: 'starting', observedRole: 'replica' }), 'degraded')).toMatchObject({ label: 'Starting', note: 'restarting; it rejoins as a replica.' });
    expect(shownRole(inst('1', 'n', 'primary', { observedRole: 'replica' }), 'degraded').label).toBe('Replica');
    expect(shownRole(inst('1', 'n', 'replica', { preferredRole: 'primary' }), 'ready').note).toMatch(/Strata moves it back/);
    expect(shownRole(inst('1', 'n', 'primary', { health: 'starting' }), 'provisioning').label).toBe('Primary');
  });
});
