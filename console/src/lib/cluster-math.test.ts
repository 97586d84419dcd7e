import { describe, expect, it } from 'vitest';
import { datasetMemoryMb, instanceCount, reservedMemoryMb, shapeLabel, slotsPerShard } from './cluster-math';

describe('cluster math', () => {
  const shape = { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 };
  it('counts instances and memory', () => {
    expect(instanceCount(shape)).toBe(6);
    expect(datasetMemoryMb(shape)).toBe(768);
    expect(reservedMemoryMb(shape)).toBe(1536);
  });
  it('slots per shard and the shape label', () => {
    expect(slotsPerShard(3)).toBe(5462);
    expect(shapeLabel(shape)).toBe('3 × 1');
  });
});
