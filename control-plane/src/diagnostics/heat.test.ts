import { describe, expect, it } from 'vitest';
import { heatOf } from './heat';

const shard = (s: number, ops: number | null, mem: number | null) => ({ shard: s, ops, memoryUsed: mem, memoryMax: 1000, keys: 1, latencyP99: 10 });

describe('heatOf', () => {
  it('gives each shard its share and the busiest over the mean', () => {
    const h = heatOf([shard(0, 100, 200), shard(1, 300, 200), shard(2, 200, 200)]);
    expect(h.shards.map((s) => s.opsShare)).toEqual([100 / 600, 300 / 600, 200 / 600]);
    expect(h.skew.ops).toBeCloseTo(1.5);
    expect(h.skew.memory).toBe(1);
    expect(h.shards[1]).toMatchObject({ opsPerSec: 300, memoryUsedBytes: 200, memoryMaxBytes: 1000, latencyP99Micros: 10 });
  });
  it('leaves out what is not known, and says nothing of an idle cluster', () => {
    const h = heatOf([shard(0, null, 100), shard(1, 0, null)]);
    expect(h.shards.map((s) => s.opsShare)).toEqual([null, null]);
    expect(h.shards.map((s) => s.memoryShare)).toEqual([1, null]);
    expect(h.skew).toEqual({ ops: null, memory: 1 });
  });
});
