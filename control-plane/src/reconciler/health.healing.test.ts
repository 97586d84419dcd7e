/**
 * A degraded cluster says why and what Strata is doing about it: the
 * `Healing` condition carries the heal plan (from the real planner) in words.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedClusterView, ObservedInstance } from '@strata/api';
import type { ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';
import { evaluateHealth } from './health';
import { planFor, suspectNodes } from './heal';

const NOW = Date.now();
const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 2, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 16384 : 0,
  openSlots: [], replOffset: 1000, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
const inst = (id: string, role: 'primary' | 'replica', nodeId: string): InstanceRow => ({
  id, clusterId: 'c', shardIndex: 0, role, preferredRole: role, replicaIndex: role === 'primary' ? 0 : 1, nodeId, port: 7000, memoryMb: 64, engineId: id.toUpperCase(), configEpoch: 1,
});
const obs = (id: string, o: Partial<ObservedInstance>): ObservedInstance => ({
  instanceId: id, clusterId: 'c', port: 7000, pid: 1, state: 'running', restarts: 0, lastError: null, cluster: null, held: false, crashedAt: null, ...o,
});

/** A 1x1 cluster (p on n1, r on n2) with the given observations. */
function ctx(observed: Record<string, ObservedInstance>): ClusterContext {
  const instances = [inst('p', 'primary', 'n1'), inst('r', 'replica', 'n2')];
  return {
    deps: {
      healing: { fastFailover: true, failoverGraceMs: 5000, rebalanceAfterMs: 30_000 }, nodeDownAfterMs: 15_000,
      observed: { isSilent: () => false, silentForMs: () => 0, unreachableByPeers: () => false, staleAfterMs: 5000 },
    } as unknown as ClusterContext['deps'],
    cluster: { id: 'c', spec: { shards: 1, durability: 'none' } } as unknown as ClusterContext['cluster'],
    operationId: null, instances, lost: [], shards: [{ shardIndex: 0 }] as unknown as ClusterContext['shards'],
    nodes: new Map([['n1', { id: 'n1', name: 'node-1' }], ['n2', { id: 'n2', name: 'node-2' }]]) as unknown as ClusterContext['nodes'],
    tasks: new Map(), observe: (id) => observed[id] ?? null, nodeReportedAt: () => NOW, awaitingFirstReport: () => false, endpointServed: null,
  } as ClusterContext;
}

const healing = (c: ClusterContext) => evaluateHealth(c, planFor(c, null)).conditions.find((x) => x.type === 'Healing');

describe('evaluateHealth: the Healing condition', () => {
  it('a healthy cluster is ready and has no Healing condition', () => {
    const c = ctx({
      p: obs('p', { cluster: view({ myId: 'P', role: 'primary' }) }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: true }) }),
    });
    expect(evaluateHealth(c, planFor(c, null)).phase).toBe('ready');
    expect(healing(c)).toBeUndefined();
  });

  it('a crashed primary with an in-sync replica: degraded, why (not running), and that Strata promotes the replica', () => {
    const c = ctx({
      p: obs('p', { state: 'crashed', held: true, crashedAt: new Date(NOW - 100).toISOString() }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: false, linkDownSinceSec: 0 }) }),
    });
    const h = evaluateHealth(c, planFor(c, null));
    expect(h.phase).toBe('degraded');
    expect(h.conditions.find((x) => x.type === 'InstancesRunning')).toMatchObject({ status: 'false', message: expect.stringMatching(/Shard 1's primary on node-1:7000 \(crashed\)/) });
    expect(healing(c)).toMatchObject({ status: 'true', reason: 'Acting', message: 'shard 1: primary stopped; promoting its in-sync replica (takeover)' });
  });

  it('no in-sync replica (durability none): promotes the one that got furthest and says its missing writes are lost; with none that had the data, restarts the primary and says all is lost', () => {
    const behind = ctx({
      p: obs('p', { state: 'crashed', held: true, crashedAt: new Date(NOW - 100).toISOString() }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: false, linkDownSinceSec: 600, replOffset: 5000 }) }),
    });
    expect(healing(behind)?.message).toBe('shard 1: primary stopped without persistence and no replica in sync; promoting the replica that got furthest (takeover): writes it had not received are lost');
    const empty = ctx({
      p: obs('p', { state: 'crashed', held: true, crashedAt: new Date(NOW - 100).toISOString() }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: false, linkDownSinceSec: 600, replOffset: 0 }) }),
    });
    expect(healing(empty)?.message).toBe('shard 1: restarting an instance (no replica was in sync when the primary stopped); without persistence its data is lost');
  });

  it('work that needs no action now is said too (waiting), and a role record alone is not "acting"', () => {
    // The replica's node has not reported the replica yet: Strata waits to hear from it before deciding.
    const waiting = ctx({ p: obs('p', { state: 'crashed', held: true, crashedAt: new Date(NOW - 100).toISOString() }) });
    waiting.deps.observed.isSilent = (n: string) => n === 'n2';
    expect(healing(waiting)?.message).toMatch(/waiting to hear from the node of its other copy/);
    // Only the stored role lags behind (record-role): nothing to tell the user.
    const lag = ctx({
      p: obs('p', { cluster: view({ myId: 'P', role: 'primary', configEpoch: 2 }) }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: true, configEpoch: 2 }) }),
    });
    expect(planFor(lag, null).actions.map((a) => a.kind)).toEqual(['record-role', 'record-role']);
    expect(healing(lag)).toBeUndefined();
  });
});

describe('a node whose agent fell silent: down at the confirmed timeout only when its engines\' peers cannot reach them', () => {
  /** r's node (n2) silent for `silentMs`; p (on n1) serves. */
  const silentHost = (silentMs: number, unreachable: boolean) => {
    const c = ctx({
      p: obs('p', { cluster: view({ myId: 'P', role: 'primary' }) }),
      r: obs('r', { cluster: view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: true }) }),
    });
    c.deps.nodeDownConfirmedAfterMs = 4500;
    c.deps.observed.silentForMs = (n: string) => (n === 'n2' ? silentMs : 0);
    c.deps.observed.isSilent = (n: string) => n === 'n2' && silentMs > 5000;
    c.deps.observed.unreachableByPeers = (n: string) => n === 'n2' && unreachable;
    return c;
  };
  const kinds = (c: ClusterContext) => planFor(c, null).actions.map((a) => a.kind);

  it('silent 4.6 s, its engine unreachable by the primary: down, its copy is rebuilt elsewhere', () => {
    expect(kinds(silentHost(4600, true))).toEqual(['replace']);
    expect(suspectNodes(silentHost(4600, true))).toEqual([]);
  });
  it('silent 3 s (a pause), the primary already flags it: not down yet, and a suspect the worker keeps passing for', () => {
    expect(kinds(silentHost(3000, true))).toEqual([]);
    expect(suspectNodes(silentHost(3000, true))).toEqual(['n2']);
  });
  it('silent 4.6 s while its engine answers the primary (the agent alone stopped): not down until the node-down timeout', () => {
    expect(kinds(silentHost(4600, false))).toEqual([]);
    expect(suspectNodes(silentHost(4600, false))).toEqual([]);
    expect(kinds(silentHost(15_000, false))).toEqual(['replace']);
  });
});
