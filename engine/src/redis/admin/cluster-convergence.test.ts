import { describe, expect, it } from 'vitest';
import { checkConvergence, firstSlotDifference, type NodeSnapshot, type PlannedMember, type ResolvedShard } from './cluster-convergence';
import type { ClusterNodeEntry } from './cluster-reply.parser';

const member = (id: string, host: string, port: number): PlannedMember => ({ id, host, port, address: `${host}:${port}` });
const p1 = member('p1', '10.0.0.1', 7000);
const p2 = member('p2', '10.0.0.2', 7000);
const r1 = member('r1', '10.0.0.2', 7001);
const r2 = member('r2', '10.0.0.1', 7001);
const shards: ResolvedShard[] = [
  { slots: [{ start: 0, end: 8191 }], primary: p1, replicas: [r1] },
  { slots: [{ start: 8192, end: 16383 }], primary: p2, replicas: [r2] },
];
const all = [p1, r1, p2, r2];
const primaryOf: Record<string, string> = { r1: 'p1', r2: 'p2' };

function entry(m: PlannedMember, me: PlannedMember, flags: string[] = []): ClusterNodeEntry {
  const replicaOf = primaryOf[m.id];
  return {
    id: m.id, host: m.host, port: m.port, myself: m === me, linkState: 'connected', configEpoch: 1,
    flags: [replicaOf ? 'slave' : 'master', ...flags],
    role: replicaOf ? 'replica' : 'primary',
    primaryId: replicaOf ?? null,
    slots: shards.find((s) => s.primary === m)?.slots ?? [],
  };
}

/** A node that sees the finished cluster. */
function healthy(me: PlannedMember): Extract<NodeSnapshot, { nodes: unknown }> {
  return {
    member: me,
    nodes: all.map((m) => entry(m, me)),
    clusterInfo: { cluster_state: 'ok' },
    replication: primaryOf[me.id] ? { role: 'slave', master_link_status: 'up' } : { role: 'master' },
    slotOwners: [{ start: 8192, end: 16383, ownerId: 'p2' }, { start: 0, end: 8191, ownerId: 'p1' }],
  };
}

describe('checkConvergence', () => {
  it('is satisfied by a formed cluster', () => {
    expect(checkConvergence(shards, all.map(healthy))).toEqual({ problems: [], actions: [] });
  });

  it.each<[string, (s: ReturnType<typeof healthy>) => NodeSnapshot, RegExp, string[]]>([
    ['unreachable node', (s) => ({ member: s.member, error: 'ECONNREFUSED' }), /10\.0\.0\.2:7001 unreachable \(ECONNREFUSED\)/, []],
    ['node not met yet', (s) => ({ ...s, nodes: s.nodes.filter((n) => n.id !== 'p2') }), /knows 3\/4 nodes \(missing 10\.0\.0\.2:7000\)/, ['meet 10.0.0.2:7001->10.0.0.2:7000']],
    ['node still in handshake', (s) => ({ ...s, nodes: s.nodes.map((n) => (n.id === 'p2' ? { ...n, id: 'tmp', flags: ['handshake'] } : n)) }), /knows 3\/4/, []],
    ['replica not replicating', (s) => ({ ...s, nodes: s.nodes.map((n) => (n.myself ? { ...n, role: 'primary' as const, primaryId: null } : n)) }), /does not replicate 10\.0\.0\.1:7000/, ['replicate 10.0.0.2:7001->10.0.0.1:7000']],
    ['replica link down', (s) => ({ ...s, replication: { master_link_status: 'down' } }), /master_link_status is down/, []],
    ['cluster state fail', (s) => ({ ...s, clusterInfo: { cluster_state: 'fail' } }), /cluster_state is fail/, []],
    ['slot owner wrong', (s) => ({ ...s, slotOwners: [{ start: 0, end: 16383, ownerId: 'p1' }] }), /slot owners differ from the plan from slot 8192/, []],
    ['stranger node', (s) => ({ ...s, nodes: [...s.nodes, { ...entry(p1, r1), id: 'zz' }] }), /outside the plan: zz/, []],
  ])('reports %s on one node', (_name, breakIt, problem, actions) => {
    const snaps = all.map((m) => (m === r1 ? breakIt(healthy(m)) : healthy(m)));
    const report = checkConvergence(shards, snaps);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(problem);
    expect(report.actions.map((a) => (a.kind === 'meet' ? `meet ${a.from.address}->${a.to.address}` : `replicate ${a.replica.address}->${a.primary.address}`))).toEqual(actions);
  });
});

describe('firstSlotDifference', () => {
  it.each([
    [[{ start: 0, end: 16383, ownerId: 'a' }], [{ start: 0, end: 16383, ownerId: 'a' }], null],
    [[{ start: 0, end: 16383, ownerId: 'a' }], [], 0],
    [[{ start: 0, end: 16383, ownerId: 'a' }], [{ start: 0, end: 99, ownerId: 'a' }], 100],
    [[{ start: 0, end: 99, ownerId: 'a' }, { start: 100, end: 16383, ownerId: 'b' }], [{ start: 0, end: 16383, ownerId: 'a' }], 100],
  ])('%j vs %j -> %s', (expected, actual, slot) => {
    expect(firstSlotDifference(expected, actual)).toBe(slot);
  });
});
