import { describe, expect, it } from 'vitest';
import { placeReplacement, planPlacement, type PlacementNode, type PlacementRequest, type PlannedInstance } from './placement.planner';

const node = (name: string, over: Partial<PlacementNode> = {}): PlacementNode => ({
  id: `id-${name}`,
  name,
  online: true,
  memoryMb: 4096,
  usedMemoryMb: 0,
  usedPorts: [],
  ...over,
});
const three = [node('a'), node('b'), node('c')];

function planned(req: PlacementRequest): PlannedInstance[] {
  const result = planPlacement(req);
  if (!result.ok) throw new Error(`expected a plan, got ${result.code}: ${result.reason}`);
  return result.instances;
}

function countByNode(instances: PlannedInstance[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of instances) counts.set(i.nodeId, (counts.get(i.nodeId) ?? 0) + 1);
  return counts;
}

/** Invariants every successful plan must satisfy. */
function expectValidPlan(req: PlacementRequest, instances: PlannedInstance[]): void {
  expect(instances).toHaveLength(req.shards * (req.replicasPerShard + 1));
  const online = new Set(req.nodes.filter((n) => n.online).map((n) => n.id));
  for (let s = 0; s < req.shards; s++) {
    const copies = instances.filter((i) => i.shardIndex === s);
    expect(copies.map((c) => c.replicaIndex)).toEqual([...Array(req.replicasPerShard + 1).keys()]);
    expect(copies[0]?.role).toBe('primary');
    expect(new Set(copies.map((c) => c.nodeId)).size).toBe(copies.length);
  }
  for (const n of req.nodes) {
    const mine = instances.filter((i) => i.nodeId === n.id);
    if (!online.has(n.id)) expect(mine).toEqual([]);
    expect(n.usedMemoryMb + mine.length * req.memoryMbPerShard).toBeLessThanOrEqual(Math.max(n.memoryMb, n.usedMemoryMb));
    const ports = mine.map((i) => i.port);
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(req.basePort ?? 7000);
      expect(p + 10000).toBeLessThanOrEqual(65535);
      expect(n.usedPorts).not.toContain(p);
    }
  }
}

describe('planPlacement: successful plans', () => {
  it.each<[string, PlacementRequest, (instances: PlannedInstance[]) => void]>([
    [
      '3 nodes, 3x1: one primary per node, no replica beside its primary',
      { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256, nodes: three },
      (instances) => {
        const primaries = instances.filter((i) => i.role === 'primary').map((i) => i.nodeId);
        expect(new Set(primaries).size).toBe(3);
        expect([...countByNode(instances).values()]).toEqual([2, 2, 2]);
        expect(instances.every((i) => i.port === 7000 || i.port === 7001)).toBe(true);
      },
    ],
    [
      '1 node, 3x0',
      { shards: 3, replicasPerShard: 0, memoryMbPerShard: 256, nodes: [node('solo')] },
      (instances) => expect(instances.map((i) => [i.nodeId, i.port])).toEqual([['id-solo', 7000], ['id-solo', 7001], ['id-solo', 7002]]),
    ],
    [
      'offline nodes are ignored',
      { shards: 2, replicasPerShard: 1, memoryMbPerShard: 256, nodes: [node('a'), node('b', { online: false }), node('c')] },
      (instances) => expect(instances.some((i) => i.nodeId === 'id-b')).toBe(false),
    ],
    [
      'ports skip used ones and their bus ports',
      { shards: 3, replicasPerShard: 0, memoryMbPerShard: 64, nodes: [node('a', { usedPorts: [7000, 7002, 7005] })], basePort: 7000 },
      (instances) => expect(instances.map((i) => i.port)).toEqual([7001, 7003, 7004]),
    ],
    [
      'custom base port',
      { shards: 2, replicasPerShard: 0, memoryMbPerShard: 64, nodes: [node('a')], basePort: 8100 },
      (instances) => expect(instances.map((i) => i.port)).toEqual([8100, 8101]),
    ],
    [
      '8x1 on 3 nodes is balanced',
      { shards: 8, replicasPerShard: 1, memoryMbPerShard: 128, nodes: three },
      (instances) => {
        const counts = [...countByNode(instances).values()];
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        const primaries = [...countByNode(instances.filter((i) => i.role === 'primary')).values()];
        expect(Math.max(...primaries) - Math.min(...primaries)).toBeLessThanOrEqual(1);
      },
    ],
    [
      'primaries start on the least used node',
      { shards: 1, replicasPerShard: 1, memoryMbPerShard: 128, nodes: [node('a', { usedMemoryMb: 1000 }), node('b', { usedMemoryMb: 10 }), node('c', { usedMemoryMb: 500 })] },
      (instances) => expect(instances.map((i) => i.nodeId)).toEqual(['id-b', 'id-c']),
    ],
    [
      'a full node is skipped for primaries',
      { shards: 3, replicasPerShard: 0, memoryMbPerShard: 100, nodes: [node('a', { memoryMb: 100 }), node('b', { memoryMb: 1000 })] },
      (instances) => expect(instances.map((i) => i.nodeId)).toEqual(['id-a', 'id-b', 'id-b']),
    ],
    [
      'exactly full capacity fits',
      { shards: 2, replicasPerShard: 1, memoryMbPerShard: 256, nodes: [node('a', { memoryMb: 512 }), node('b', { memoryMb: 512 })] },
      (instances) => expect([...countByNode(instances).values()]).toEqual([2, 2]),
    ],
  ])('%s', (_name, req, check) => {
    const instances = planned(req);
    expectValidPlan(req, instances);
    check(instances);
  });
});

describe('planPlacement: refusals', () => {
  it.each<[string, PlacementRequest, string, RegExp]>([
    ['no nodes at all', { shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, nodes: [] }, 'no_nodes', /no nodes are registered/],
    ['all nodes offline', { shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, nodes: [node('a', { online: false }), node('b', { online: false })] }, 'no_nodes', /all 2 registered nodes are offline/],
    ['2 nodes, 1x2', { shards: 1, replicasPerShard: 2, memoryMbPerShard: 64, nodes: [node('a'), node('b')] }, 'too_few_nodes', /^3 copies per shard \(1 primary \+ 2 replicas\) need 3 online nodes; 2 are online$/],
    ['offline nodes do not count', { shards: 1, replicasPerShard: 1, memoryMbPerShard: 64, nodes: [node('a'), node('b', { online: false })] }, 'too_few_nodes', /need 2 online nodes; 1 is online/],
    ['capacity exhausted', { shards: 3, replicasPerShard: 1, memoryMbPerShard: 512, nodes: [node('a', { memoryMb: 1024 }), node('b', { memoryMb: 1024, usedMemoryMb: 512 })] }, 'insufficient_memory', /6 instances of 512 MB need 3072 MB; 2 online nodes have 1536 MB free/],
    ['no single node fits a copy', { shards: 2, replicasPerShard: 0, memoryMbPerShard: 300, nodes: [node('a', { memoryMb: 200 }), node('b', { memoryMb: 200 }), node('c', { memoryMb: 200 })] }, 'insufficient_memory', /shard 1 primary needs 300 MB; the most free memory on an eligible node is 200 MB/],
    ['replica has no room beside anti-affinity', { shards: 2, replicasPerShard: 1, memoryMbPerShard: 100, nodes: [node('a', { memoryMb: 400 }), node('b', { memoryMb: 100 })] }, 'insufficient_memory', /replica 1 needs 100 MB/],
  ])('%s', (_name, req, code, reason) => {
    const result = planPlacement(req);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(code);
    expect(result.reason).toMatch(reason);
  });

  it.each([
    { shards: 0, replicasPerShard: 0, memoryMbPerShard: 64 },
    { shards: 1, replicasPerShard: -1, memoryMbPerShard: 64 },
    { shards: 1, replicasPerShard: 0, memoryMbPerShard: 0 },
  ])('throws on invalid request %j', (req) => {
    expect(() => planPlacement({ ...req, nodes: three })).toThrow(RangeError);
  });
});

describe('planPlacement: determinism', () => {
  it('returns the same plan for the same request, whatever the node order', () => {
    const req: PlacementRequest = { shards: 5, replicasPerShard: 2, memoryMbPerShard: 128, nodes: [...three, node('d', { usedMemoryMb: 64 })] };
    const first = planned(req);
    expect(planned(req)).toEqual(first);
    expect(planned({ ...req, nodes: [...req.nodes].reverse() })).toEqual(first);
  });
});

describe('planPlacement: warm spares', () => {
  it('gives primaries the spare ports and replicas regular ports that never collide with spares', () => {
    const nodes = [node('a', { sparePorts: [7999, 7998] }), node('b', { sparePorts: [7999] }), node('c')];
    const req = { shards: 4, replicasPerShard: 1, memoryMbPerShard: 64, nodes };
    const plan = planned(req);
    expectValidPlan(req, plan);
    const primaries = plan.filter((i) => i.role === 'primary');
    expect(primaries.filter((i) => i.nodeId === 'id-a').map((i) => i.port).sort()).toEqual([7998, 7999]);
    expect(primaries.find((i) => i.nodeId === 'id-b')?.port).toBe(7999);
    expect(primaries.find((i) => i.nodeId === 'id-c')?.port).toBe(7000);
    for (const r of plan.filter((i) => i.role === 'replica')) expect(r.port).toBeLessThan(7998);
  });

  it('ignores spare ports that are already in use', () => {
    const plan = planned({ shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, nodes: [node('a', { usedPorts: [7999], sparePorts: [7999] })] });
    expect(plan[0]!.port).toBe(7000);
  });
});

describe('placeReplacement', () => {
  const n = (id: string, usedMemoryMb: number, online = true, usedPorts: number[] = []) => ({ id, name: id, online, memoryMb: 1024, usedMemoryMb, usedPorts });
  it('picks the least loaded online node without a copy of the shard, on its lowest free port', () => {
    const r = placeReplacement({ memoryMb: 256, excludeNodeIds: ['a'], nodes: [n('a', 0), n('b', 512, true, [7000]), n('c', 256, true, [7000, 7001]), n('d', 0, false)] });
    expect(r).toEqual({ ok: true, nodeId: 'c', port: 7002 });
  });
  it('says why when no node may take it', () => {
    expect(placeReplacement({ memoryMb: 256, excludeNodeIds: ['a', 'b'], nodes: [n('a', 0), n('b', 0)] })).toMatchObject({ ok: false, code: 'too_few_nodes' });
    expect(placeReplacement({ memoryMb: 900, excludeNodeIds: ['a'], nodes: [n('a', 0), n('b', 512)] })).toMatchObject({ ok: false, code: 'insufficient_memory', reason: expect.stringContaining('512 MB') });
  });
});

describe('planSecondPorts (a TLS switch serves the other protocol there)', () => {
  it('never a port or bus port in use nor a spare, and two instances on one node never share one', async () => {
    const { planSecondPorts } = await import('./placement.planner');
    const a = node('a', { usedPorts: [7000, 7001], sparePorts: [7002] });
    const b = node('b', { usedPorts: [7000] });
    const ports = planSecondPorts([a, b], [{ id: 'x', nodeId: a.id }, { id: 'y', nodeId: a.id }, { id: 'z', nodeId: b.id }]);
    expect(ports.get('x')).toBe(7003);
    expect(ports.get('y')).toBe(7004);
    expect(ports.get('z')).toBe(7001);
    // An instance's bus port (port + 10000) is no second port either.
    expect(planSecondPorts([node('c', { usedPorts: [7000] })], [{ id: 'w', nodeId: 'id-c' }], 17000).get('w')).toBe(17001);
    expect(() => planSecondPorts([a], [{ id: 'q', nodeId: 'nowhere' }])).toThrow(/placement does not know/);
  });
});
