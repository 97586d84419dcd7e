import { describe, expect, it } from 'vitest';
import type { PlacementNode } from '../placement.planner';
import {
  compressSlots, evenCounts, expandRanges, movedSlots, planSlotTargets, planTopologyChange, rollbackStepNames, specProblem, updateStepNames, type TopologyInstance, type TopologySpec, type UpdateDesired,
} from './topology.planner';
import { planSlots } from './slots.planner';

const spec = (s: Partial<TopologySpec> = {}): TopologySpec => ({ shards: 3, replicasPerShard: 1, memoryMbPerShard: 64, durability: 'none', evictionPolicy: 'noeviction', ...s });
const nodes = (n: number, memoryMb = 1024): PlacementNode[] =>
  Array.from({ length: n }, (_, i) => ({ id: `n${i}`, name: `node-${i}`, online: true, memoryMb, usedMemoryMb: 0, usedPorts: [] }));

/** A placed 3x1 cluster on n0..n2 with node usage filled in. */
function cluster(shards = 3, replicas = 1, memoryMb = 64, nodeCount = 3, nodeMemory = 1024) {
  const ns = nodes(nodeCount, nodeMemory);
  const instances: TopologyInstance[] = [];
  for (let s = 0; s < shards; s++) {
    for (let r = 0; r <= replicas; r++) {
      const node = ns[(s + r) % nodeCount]!;
      const port = 7000 + s * 10 + r;
      instances.push({ id: `i${s}-${r}`, shard: s, role: r === 0 ? 'primary' : 'replica', replicaIndex: r, nodeId: node.id, port });
      node.usedMemoryMb += memoryMb;
      node.usedPorts.push(port);
    }
  }
  return { nodes: ns, instances, shardSlots: planSlots(shards).map((r) => [r]) };
}

const sumSlots = (ranges: { start: number; end: number }[][]) => ranges.reduce((n, r) => n + expandRanges(r).length, 0);

describe('planSlotTargets', () => {
  const cases: { from: number; to: number; moved: number }[] = [
    { from: 3, to: 4, moved: 4096 },
    { from: 4, to: 3, moved: 4096 },
    { from: 1, to: 2, moved: 8192 },
    { from: 3, to: 6, moved: 8192 },
    { from: 6, to: 3, moved: 8192 },
    { from: 3, to: 3, moved: 0 },
  ];
  it.each(cases)('$from -> $to shards moves $moved slots and ends even, every slot owned once', ({ from, to, moved }) => {
    const { target, moves } = planSlotTargets(planSlots(from).map((r) => [r]), to);
    expect(target).toHaveLength(to);
    expect(target.map((r) => expandRanges(r).length)).toEqual(evenCounts(to));
    const all = target.flatMap(expandRanges);
    expect(new Set(all).size).toBe(16384);
    expect(all).toHaveLength(16384);
    expect(moves.reduce((n, m) => n + m.slots.length, 0)).toBe(moved);
    for (const m of moves) expect(m.from).not.toBe(m.to);
  });

  it('keeps slots where they are when the split is already even (no needless moves)', () => {
    const { moves } = planSlotTargets(planSlots(4).map((r) => [r]), 4);
    expect(moves).toEqual([]);
  });

  it('compresses and expands ranges', () => {
    expect(compressSlots([5, 1, 2, 3, 7])).toEqual([{ start: 1, end: 3 }, { start: 5, end: 5 }, { start: 7, end: 7 }]);
    expect(expandRanges([{ start: 1, end: 3 }])).toEqual([1, 2, 3]);
  });
});

describe('planTopologyChange', () => {
  it('3 -> 4 shards: a new primary and replica on different nodes, 4096 slots in from each shard pro rata, with estimates', () => {
    const c = cluster(3, 1, 64, 4);
    const r = planTopologyChange({
      current: spec(), desired: spec({ shards: 4 }), ...c,
      data: [{ keys: 30_000, bytes: 3 * 1024 * 1024 }, { keys: 30_000, bytes: 3 * 1024 * 1024 }, { keys: 30_000, bytes: 3 * 1024 * 1024 }],
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.add.map((a) => [a.shard, a.role])).toEqual([[3, 'primary'], [3, 'replica']]);
    expect(r.add[0]!.nodeId).not.toBe(r.add[1]!.nodeId);
    expect(r.add[0]!.nodeId).toBe('n0'); // a least-loaded node (n0 and n3 hold one copy each) takes the new primary
    expect(r.remove).toEqual([]);
    expect(r.moves.every((m) => m.toShard === 3)).toBe(true);
    expect(r.totals.slots).toBe(4096);
    expect(r.totals.keys).toBeGreaterThan(22_000);
    expect(r.totals.keys).toBeLessThan(23_000);
    expect(r.steps.map((s) => s.name)).toEqual(['start-instances', 'join-instances', 'migrate-slots', 'finish']);
    expect(r.online).toBe(true);
    expect(sumSlots(r.targetSlots)).toBe(16384);
  });

  it('4 -> 3 shards: the last shard is drained into the others, then its copies removed', () => {
    const c = cluster(4, 1, 64, 4);
    const r = planTopologyChange({ current: spec({ shards: 4 }), desired: spec({ shards: 3 }), ...c, data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.add).toEqual([]);
    expect(r.remove.sort()).toEqual(['i3-0', 'i3-1']);
    expect(r.moves.every((m) => m.fromShard === 3)).toBe(true);
    expect(r.targetSlots).toHaveLength(3);
    expect(r.steps.map((s) => s.name)).toEqual(['migrate-slots', 'remove-instances', 'finish']);
  });

  it('replicas 1 -> 2: one more replica per shard, never on a node holding a copy of it', () => {
    const c = cluster(3, 1, 64, 3);
    const r = planTopologyChange({ current: spec(), desired: spec({ replicasPerShard: 2 }), ...c, data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.add).toHaveLength(3);
    for (const a of r.add) {
      const holders = c.instances.filter((i) => i.shard === a.shard).map((i) => i.nodeId);
      expect(holders).not.toContain(a.nodeId);
      expect(a.replicaIndex).toBe(2);
    }
    expect(r.moves).toEqual([]);
  });

  it('3 -> 4 right after a failover, two rows of a shard still recorded primary: no extra copy of that shard', () => {
    const c = cluster(3, 1, 64, 3);
    c.instances.find((i) => i.id === 'i1-1')!.role = 'primary'; // promoted; the old primary's row not recorded replica yet
    const r = planTopologyChange({ current: spec(), desired: spec({ shards: 4 }), ...c, data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.add.filter((a) => a.shard < 3)).toEqual([]);
    expect(r.add.filter((a) => a.shard === 3)).toHaveLength(2);
  });

  it('replicas 2 -> 1: removes the newest replica of each shard, never a primary', () => {
    const c = cluster(3, 2, 64, 3);
    c.instances.find((i) => i.id === 'i0-2')!.role = 'primary'; // failed over: the live primary stays
    c.instances.find((i) => i.id === 'i0-0')!.role = 'replica';
    const r = planTopologyChange({ current: spec({ replicasPerShard: 2 }), desired: spec({ replicasPerShard: 1 }), ...c, data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.remove.sort()).toEqual(['i0-1', 'i1-2', 'i2-2']);
  });

  it('replicas 2 -> 1 with a node away: copies there do not count, and no live replica is removed in their place', () => {
    const c = cluster(3, 2, 64, 3);
    c.nodes.find((n) => n.id === 'n0')!.online = false;
    // Shard 0's primary was on n0: its replica on n1 was promoted, the row on n0 still says primary.
    c.instances.find((i) => i.id === 'i0-1')!.role = 'primary';
    const r = planTopologyChange({ current: spec({ replicasPerShard: 2 }), desired: spec({ replicasPerShard: 1 }), ...c, data: [] });
    if (!r.ok) throw new Error(r.reason);
    // Every shard keeps its two live copies; the copies on n0 are left to healing.
    expect(r.remove).toEqual([]);
    expect(r.add).toEqual([]);
  });

  it('replicas beyond the node count are 422 (anti-affinity), naming replicasPerShard', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ replicasPerShard: 3 }), ...cluster(3, 1, 64, 3), data: [] });
    expect(r).toMatchObject({ ok: false, code: 'unplaceable', field: 'replicasPerShard' });
  });

  it('more shards than the nodes have memory for is 422', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ shards: 10 }), ...cluster(3, 1, 64, 3, 200), data: [] });
    expect(r).toMatchObject({ ok: false, code: 'unplaceable' });
  });

  it('memory below the data held is refused (does_not_fit)', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ memoryMbPerShard: 16 }), ...cluster(), data: [{ keys: 1, bytes: 20 * 1024 * 1024 }, null, null] });
    expect(r).toMatchObject({ ok: false, code: 'does_not_fit', field: 'memoryMbPerShard' });
  });

  it('fewer shards than the data needs is refused', () => {
    const big = { keys: 1, bytes: 40 * 1024 * 1024 };
    const r = planTopologyChange({ current: spec({ shards: 4 }), desired: spec({ shards: 2 }), ...cluster(4, 1, 64, 4), data: [big, big, big, big] });
    expect(r).toMatchObject({ ok: false, code: 'does_not_fit', field: 'shards' });
  });

  it('memory growth a node cannot hold is 422', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ memoryMbPerShard: 600 }), ...cluster(3, 1, 64, 3, 1024), data: [] });
    expect(r).toMatchObject({ ok: false, code: 'unplaceable', field: 'memoryMbPerShard' });
  });

  it('memory, durability and eviction only: one in-place configure step, nothing moves', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ memoryMbPerShard: 128, durability: 'aof-everysec', evictionPolicy: 'allkeys-lru' }), ...cluster(), data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.vertical).toBe(true);
    expect(r.steps.map((s) => s.name)).toEqual(['configure', 'finish']);
    expect(r.changes.map((c) => c.field)).toEqual(['memoryMbPerShard', 'durability', 'evictionPolicy']);
  });

  it('write fencing is turned on in place, like the other settings', () => {
    const r = planTopologyChange({ current: spec(), desired: spec({ fencing: 'on' }), ...cluster(), data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.vertical).toBe(true);
    expect(r.steps.map((s) => s.name)).toEqual(['configure', 'finish']);
    expect(r.changes).toEqual([{ field: 'fencing', from: 'off', to: 'on' }]);
    expect(r.steps[0]!.title).toContain('fencing off → on');
  });

  it('write fencing without a replica per shard is refused, naming the field the change touched', () => {
    expect(planTopologyChange({ current: spec({ replicasPerShard: 0 }), desired: spec({ replicasPerShard: 0, fencing: 'on' }), ...cluster(3, 0), data: [] }))
      .toMatchObject({ ok: false, code: 'invalid', field: 'fencing' });
    expect(planTopologyChange({ current: spec({ fencing: 'on' }), desired: spec({ fencing: 'on', replicasPerShard: 0 }), ...cluster(), data: [] }))
      .toMatchObject({ ok: false, code: 'invalid', field: 'replicasPerShard' });
    expect(specProblem({ replicasPerShard: 1, fencing: 'on' })).toBeNull();
    expect(specProblem({ replicasPerShard: 0 })).toBeNull();
  });

  it('client certificates change in place on a TLS cluster and are refused without TLS, naming the field', () => {
    const r = planTopologyChange({ current: spec({ tls: 'required' }), desired: spec({ tls: 'required', tlsClientAuth: 'required' }), ...cluster(), data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.vertical).toBe(true);
    expect(r.steps.map((s) => s.name)).toEqual(['configure', 'finish']);
    expect(r.changes).toEqual([{ field: 'tlsClientAuth', from: 'none', to: 'required' }]);
    expect(r.steps[0]!.title).toContain('tlsClientAuth none → required');
    expect(planTopologyChange({ current: spec(), desired: spec({ tlsClientAuth: 'required' }), ...cluster(), data: [] }))
      .toMatchObject({ ok: false, code: 'invalid', field: 'tlsClientAuth' });
    expect(specProblem({ replicasPerShard: 1, tls: 'off', tlsClientAuth: 'required' })).toMatchObject({ field: 'tlsClientAuth' });
    expect(specProblem({ replicasPerShard: 1, tls: 'required', tlsClientAuth: 'required' })).toBeNull();
    expect(specProblem({ replicasPerShard: 1, tls: 'off', tlsClientAuth: 'optional' })).toMatchObject({ field: 'tlsClientAuth' });
    expect(specProblem({ replicasPerShard: 1, tls: 'required', tlsClientAuth: 'optional' })).toBeNull();
    expect(specProblem({ replicasPerShard: 1, tlsClientAuth: 'none' })).toBeNull();
  });

  it('an unchanged spec is reported as such', () => {
    expect(planTopologyChange({ current: spec(), desired: spec(), ...cluster(), data: [] })).toMatchObject({ ok: false, code: 'unchanged' });
  });
});

describe('update steps follow from what the update is to reach', () => {
  const three = planSlots(3).map((r) => [r]);
  const four = planSlotTargets(three, 4).target;
  const two = planSlotTargets(three, 2).target;
  const table: { name: string; d: UpdateDesired; steps: string[]; rollback: string[] }[] = [
    { name: 'shards 3 -> 4', d: { from: spec(), to: spec({ shards: 4 }), originalSlots: three, targetSlots: four, added: ['a', 'b'], removed: [] },
      steps: ['start-instances', 'join-instances', 'migrate-slots', 'finish'], rollback: ['rollback-migrate', 'rollback-remove', 'rollback-finish'] },
    { name: 'shards 3 -> 2', d: { from: spec(), to: spec({ shards: 2 }), originalSlots: three, targetSlots: two, added: [], removed: ['p2', 'r2'] },
      steps: ['migrate-slots', 'remove-instances', 'finish'], rollback: ['rollback-migrate', 'rollback-finish'] },
    { name: 'replicas 1 -> 2', d: { from: spec(), to: spec({ replicasPerShard: 2 }), originalSlots: three, targetSlots: three, added: ['a', 'b', 'c'], removed: [] },
      steps: ['start-instances', 'join-instances', 'finish'], rollback: ['rollback-remove', 'rollback-finish'] },
    { name: 'replicas 1 -> 0', d: { from: spec(), to: spec({ replicasPerShard: 0 }), originalSlots: three, targetSlots: three, added: [], removed: ['r0', 'r1', 'r2'] },
      steps: ['remove-instances', 'finish'], rollback: ['rollback-finish'] },
    { name: 'memory', d: { from: spec(), to: spec({ memoryMbPerShard: 128 }), originalSlots: three, targetSlots: three, added: [], removed: [] },
      steps: ['configure', 'finish'], rollback: ['rollback-configure', 'rollback-finish'] },
    { name: 'durability and eviction', d: { from: spec(), to: spec({ durability: 'aof-everysec', evictionPolicy: 'allkeys-lru' }), originalSlots: three, targetSlots: three, added: [], removed: [] },
      steps: ['configure', 'finish'], rollback: ['rollback-configure', 'rollback-finish'] },
    { name: 'shards and memory', d: { from: spec(), to: spec({ shards: 4, memoryMbPerShard: 128 }), originalSlots: three, targetSlots: four, added: ['a', 'b'], removed: [] },
      steps: ['configure', 'start-instances', 'join-instances', 'migrate-slots', 'finish'], rollback: ['rollback-configure', 'rollback-migrate', 'rollback-remove', 'rollback-finish'] },
  ];
  it.each(table)('$name', ({ d, steps, rollback }) => {
    expect(updateStepNames(d)).toEqual(steps);
    expect(rollbackStepNames(d)).toEqual(rollback);
  });

  it('the plan a dry run shows has the same steps', () => {
    const c = cluster();
    const r = planTopologyChange({ current: spec(), desired: spec({ shards: 4, memoryMbPerShard: 128 }), shardSlots: c.shardSlots, instances: c.instances, nodes: c.nodes, data: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.steps.map((s) => s.name)).toEqual(updateStepNames({ from: spec(), to: spec({ shards: 4, memoryMbPerShard: 128 }), originalSlots: c.shardSlots, targetSlots: r.targetSlots, added: r.add, removed: r.remove }));
    expect(movedSlots(c.shardSlots, r.targetSlots)).toBe(r.totals.slots);
  });
});
