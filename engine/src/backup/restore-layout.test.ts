import { describe, expect, it } from 'vitest';
import { planRestore, restoreLayoutMismatch, restoreMemoryNeededMb } from './restore-layout';

describe('restoreLayoutMismatch', () => {
  it('accepts a backup whose shards own the even split, also as touching pieces', () => {
    expect(restoreLayoutMismatch([{ slots: [{ start: 0, end: 8191 }] }, { slots: [{ start: 8192, end: 16383 }] }])).toBeNull();
    expect(restoreLayoutMismatch([{ slots: [{ start: 4000, end: 8191 }, { start: 0, end: 3999 }] }, { slots: [{ start: 8192, end: 16383 }] }])).toBeNull();
  });

  it('refuses a backup taken after a reshard (scattered or uneven slots)', () => {
    const r = restoreLayoutMismatch([{ slots: [{ start: 0, end: 4000 }, { start: 9000, end: 9100 }] }, { slots: [{ start: 4001, end: 8999 }, { start: 9101, end: 16383 }] }]);
    expect(r).toEqual({ shard: 0, backup: [{ start: 0, end: 4000 }, { start: 9000, end: 9100 }], fresh: { start: 0, end: 8191 } });
    expect(restoreLayoutMismatch([{ slots: [{ start: 0, end: 8000 }] }, { slots: [{ start: 8001, end: 16383 }] }])?.shard).toBe(0);
  });
});

describe('planRestore', () => {
  const MB = 1024 * 1024;
  const even2 = [{ slots: [{ start: 0, end: 8191 }], usedMemoryBytes: 30 * MB }, { slots: [{ start: 8192, end: 16383 }], usedMemoryBytes: 10 * MB }];

  it('seeds shards one to one when the layout is a new cluster\'s even split; the largest shard sets the memory', () => {
    const plan = planRestore(even2, 2);
    expect(plan).toEqual({ mode: 'seed' });
    expect(restoreMemoryNeededMb(even2, 2, plan)).toBe(30);
  });

  it('moves keys into any other shard count; an even share of all the data plus 10% sets the memory', () => {
    const plan = planRestore(even2, 5);
    expect(plan).toEqual({ mode: 'move', reason: 'the backup has 2 shard(s), the new cluster 5' });
    expect(restoreMemoryNeededMb(even2, 5, plan)).toBe(9); // 40 MB / 5 * 1.1 = 8.8
    expect(restoreMemoryNeededMb(even2, 1, planRestore(even2, 1))).toBe(44);
  });

  it('moves keys of a backup taken after a reshard, even into the same shard count', () => {
    const resharded = [{ slots: [{ start: 0, end: 8000 }], usedMemoryBytes: MB }, { slots: [{ start: 8001, end: 16383 }], usedMemoryBytes: MB }];
    expect(planRestore(resharded, 2)).toEqual({ mode: 'move', reason: 'shard 0 of the backup owned slots 0-8000, a new cluster\'s owns 0-8191' });
  });
});
