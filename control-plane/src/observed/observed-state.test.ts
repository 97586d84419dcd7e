import { describe, expect, it } from 'vitest';
import type { AgentStatusReport, ObservedInstance } from '@strata/api';
import { ObservedState } from './observed-state';

const inst = (id: string, state: ObservedInstance['state'] = 'running'): ObservedInstance => ({
  instanceId: id, clusterId: 'c1', port: 7000, pid: 10, state, restarts: 0, lastError: null, cluster: null, held: false, crashedAt: null,
});
const report = (instances: ObservedInstance[], sparePorts?: number[]): AgentStatusReport => ({ agentVersion: 'x', memoryMb: 100, instances, sparePorts });
/** An engine with Redis node id `myId` that cannot reach the engines `unreachable`. */
const engine = (id: string, myId: string, unreachable: string[] = []): ObservedInstance => ({
  ...inst(id),
  cluster: {
    myId, role: 'primary', state: 'ok', knownNodes: 3, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: 100, openSlots: [],
    replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, unreachablePeers: unreachable,
  },
});

describe('ObservedState', () => {
  it('replaces a node’s previous report and forgets instances it no longer lists', () => {
    const o = new ObservedState();
    o.record('n1', report([inst('a'), inst('b')]));
    o.record('n1', report([inst('a', 'crashed')]));
    expect(o.instance('a')?.state).toBe('crashed');
    expect(o.instance('b')).toBeNull();
  });

  it('waits for a first report only just after its start: a node still silent after that is silent', () => {
    let now = 1000;
    const o = new ObservedState(() => now, 5000);
    expect(o.awaitingFirstReport('n1')).toBe(true);
    o.record('n2', report([inst('a')]));
    expect(o.awaitingFirstReport('n2')).toBe(false);
    now += 5001;
    expect(o.awaitingFirstReport('n1')).toBe(false);
    expect(o.isSilent('n1')).toBe(true);
  });

  it('knows the ports of every engine a node reported, wanted or not (a placement must not reuse them)', () => {
    const o = new ObservedState();
    expect(o.enginePorts('n1')).toEqual([]);
    o.record('n1', report([inst('a'), { ...inst('orphan'), clusterId: 'deleted', port: 7001 }]));
    expect(o.enginePorts('n1')).toEqual([7000, 7001]);
    o.record('n1', report([inst('a')]));
    expect(o.enginePorts('n1')).toEqual([7000]);
  });

  it('only believes the node an instance is placed on', () => {
    const o = new ObservedState();
    o.record('n2', report([inst('a')]));
    expect(o.instance('a', 'n1')).toBeNull();
    expect(o.instance('a', 'n2')?.state).toBe('running');
  });

  it('tells listeners which clusters a report touched, and expires stale spare ports', () => {
    let now = 1000;
    const o = new ObservedState(() => now);
    const seen: string[][] = [];
    o.onReport((_n, ids) => seen.push([...ids]));
    o.record('n1', report([inst('a')], [7999]));
    expect(seen).toEqual([['c1']]);
    expect(o.lastReportAt('n1')).toBe(1000);
    expect(o.sparePorts('n1')).toEqual([7999]);
    now += 10_000;
    expect(o.sparePorts('n1')).toEqual([]);
    expect(o.lastReportAt('n9')).toBeNull();
  });

  it('tells listeners which clusters changed in a way that matters, not every report', () => {
    const o = new ObservedState();
    const calls: string[][] = [];
    o.onReport((_n, _all, changed) => calls.push([...changed]));
    o.record('n1', report([inst('a')]));
    o.record('n1', report([inst('a')]));
    o.record('n1', report([inst('a', 'crashed')]));
    o.record('n1', report([]));
    expect(calls).toEqual([['c1'], [], ['c1'], ['c1']]);
  });

  it('what a silent node last said stops counting: its instances are unknown', () => {
    let now = 1000;
    const o = new ObservedState(() => now, 5000);
    o.record('n1', report([inst('a')]));
    expect(o.instance('a', 'n1')?.state).toBe('running');
    expect(o.isSilent('n1')).toBe(false);
    now += 5001;
    expect(o.instance('a', 'n1')).toBeNull();
    expect(o.isSilent('n1')).toBe(true);
    expect(o.isSilent('never-reported')).toBe(true);
  });

  it('a node is silent for as long as this process has not heard from it, never longer than the process has run', () => {
    let now = 50_000;
    const o = new ObservedState(() => now, 5000);
    now += 3000;
    expect(o.silentForMs('n1')).toBe(3000);
    o.record('n1', report([]));
    now += 1000;
    expect(o.silentForMs('n1')).toBe(1000);
  });

  describe('unreachableByPeers: every engine of a node flagged by every other node with a fresh report of its cluster', () => {
    const fleet = (now: { t: number }, settleMs = 0) => {
      const o = new ObservedState(() => now.t, 5000, 2500, settleMs);
      o.record('n1', report([engine('a', 'A'), engine('b', 'B')]));
      return o;
    };

    it('is false while any engine of the node is reachable, and true once every peer node flags them all', () => {
      const now = { t: 0 };
      const o = fleet(now);
      o.record('n2', report([engine('c', 'C', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      expect(o.unreachableByPeers('n1')).toBe(true);
      o.record('n3', report([engine('d', 'D', ['A', 'B'])]));
      expect(o.unreachableByPeers('n1')).toBe(true);
      // A peer that reaches it again takes its flag back.
      o.record('n3', report([engine('d', 'D', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
    });

    it('is false when one peer node flags the engines and another still reaches them (an asymmetric cut)', () => {
      const now = { t: 0 };
      const o = fleet(now);
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      o.record('n3', report([engine('d', 'D')]));
      expect(o.unreachableByPeers('n1')).toBe(false);
      // The peer that reached it stops reporting: its word counts only while its reports are fresh.
      now.t += 2000;
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      now.t += 501;
      expect(o.unreachableByPeers('n1')).toBe(true);
    });

    it('does not count a node flagging its own engines, nor peers whose reports are not fresh', () => {
      const now = { t: 0 };
      const o = fleet(now);
      o.record('n1', report([engine('a', 'A', ['B']), engine('b', 'B', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      expect(o.unreachableByPeers('n1')).toBe(true);
      now.t += 2501;
      expect(o.unreachableByPeers('n1')).toBe(false);
    });

    it('does not let an engine started just now (a rebuilt copy that has not had the node timeout yet) stand for its node', () => {
      const now = { t: 0 };
      const o = fleet(now, 5000);
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      now.t = 4000;
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      expect(o.unreachableByPeers('n1')).toBe(false); // n2's engine has run only 4 s: no witness yet
      now.t = 5000;
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      o.record('n3', report([engine('d', 'D')])); // a new copy on n3, reaching nobody yet
      expect(o.unreachableByPeers('n1')).toBe(true);
      // A restart of n2's engine (reported not running) starts its settle time again.
      o.record('n2', report([{ ...engine('c', 'C', ['A', 'B']), state: 'crashed' }]));
      now.t = 6000;
      o.record('n2', report([engine('c', 'C', ['A', 'B'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
    });

    it('is false while one engine of the node still answers its peers (only its agent and one engine died, its host lives)', () => {
      const now = { t: 0 };
      const o = fleet(now);
      // A was killed with the agent; B still serves and its peers reach it.
      o.record('n2', report([engine('c', 'C', ['A'])]));
      o.record('n3', report([engine('d', 'D', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
    });

    it('is held back (the full timeout applies) by an engine its peers no longer know: removed from its cluster, not stopped yet', () => {
      const now = { t: 0 };
      const o = new ObservedState(() => now.t, 5000, 2500, 0);
      o.record('n1', report([engine('a', 'A'), engine('z', 'Z')]));
      o.record('n2', report([engine('c', 'C', ['A'])]));
      o.record('n3', report([engine('d', 'D', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
    });

    it('is false for a node that reported no engine with a Redis node id', () => {
      const o = new ObservedState();
      o.record('n1', report([inst('a')]));
      o.record('n2', report([engine('c', 'C', ['A'])]));
      expect(o.unreachableByPeers('n1')).toBe(false);
      expect(o.unreachableByPeers('n9')).toBe(false);
    });
  });
});
