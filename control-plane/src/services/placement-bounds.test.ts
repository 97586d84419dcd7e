import { describe, expect, it } from 'vitest';
import { planPlacement, type PlacementNode } from '@strata/engine';
import { formatMb, maxMemoryMbPerShard, maxShards, placementProblem, type Shape } from './placement-bounds';

const node = (i: number, memoryMb: number, usedMemoryMb = 0, online = true): PlacementNode => ({
  id: `id-${i}`, name: `node-${i}`, online, memoryMb, usedMemoryMb, usedPorts: [],
});
/** Free: 4096, 2048, 1536 MB. */
const NODES = [node(1, 4096), node(2, 4096, 2048), node(3, 2048, 512)];

function problemOf(nodes: PlacementNode[], s: Shape) {
  const r = planPlacement({ ...s, nodes });
  if (r.ok) throw new Error('expected the planner to refuse');
  return placementProblem(nodes, s, r);
}

describe('placement bounds', () => {
  it('memory bound is the (R+1)th-largest free node; shards bound from the planner', () => {
    expect([0, 1, 2].map((r) => maxMemoryMbPerShard(NODES, r))).toEqual([4096, 2048, 1536]);
    expect(maxShards(NODES, 0, 1024)).toBe(7); // 4 + 2 + 1
    expect(maxShards(NODES, 2, 1024)).toBe(1);
    expect(maxShards(NODES, 0, 8192)).toBe(0);
  });
  it('formats GB from 1024 MB, rounding room down', () => {
    expect([512, 1024, 1536, 2016, 65536].map(formatMb)).toEqual(['512 MB', '1 GB', '1.5 GB', '1.9 GB', '64 GB']);
  });
});

describe('placementProblem: the field at fault, in human units', () => {
  it('too many shards is the shards field, even though the planner says insufficient_memory', () => {
    const s = { shards: 64, replicasPerShard: 1, memoryMbPerShard: 1024 };
    expect(planPlacement({ ...s, nodes: NODES })).toMatchObject({ ok: false, code: 'insufficient_memory' });
    expect(problemOf(NODES, s)).toEqual({
      field: 'shards',
      message: '64 shards of 1 GB with 1 replica do not fit on the nodes now. At most 3 shards of this size fit.',
    });
  });
  it('one shard of this size not fitting is the memory field, with the most that fits in GB', () => {
    expect(problemOf(NODES, { shards: 1, replicasPerShard: 1, memoryMbPerShard: 4096 })).toEqual({
      field: 'memoryMbPerShard', message: 'No room for 4 GB per shard with 1 replica: at most 2 GB per shard fits now.',
    });
    expect(problemOf([node(1, 1000)], { shards: 1, replicasPerShard: 0, memoryMbPerShard: 2048 }).message)
      .toBe('No room for 2 GB per shard: at most 1000 MB per shard fits now.');
  });
  it('more copies than nodes is the replicas field; no node online is the shards field', () => {
    expect(problemOf(NODES, { shards: 1, replicasPerShard: 3, memoryMbPerShard: 32 })).toEqual({
      field: 'replicasPerShard',
      message: '3 replicas per shard need 4 online nodes (a primary and each replica on different nodes); 3 are online. At most 2 replicas.',
    });
    expect(problemOf([node(1, 1024, 0, false)], { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }).field).toBe('shards');
  });
});
