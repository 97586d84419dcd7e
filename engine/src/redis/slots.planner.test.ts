import { describe, expect, it } from 'vitest';
import { planSlots, SLOT_COUNT } from './slots.planner';

describe('planSlots', () => {
  it.each([1, 2, 3, 5, 7, 64, 1000, SLOT_COUNT])('covers 0..16383 exactly once with %i shards', (n) => {
    const ranges = planSlots(n);
    expect(ranges).toHaveLength(n);
    expect(ranges[0]?.start).toBe(0);
    expect(ranges[n - 1]?.end).toBe(SLOT_COUNT - 1);
    let next = 0;
    const sizes = new Set<number>();
    for (const r of ranges) {
      expect(r.start).toBe(next);
      expect(r.end).toBeGreaterThanOrEqual(r.start);
      sizes.add(r.end - r.start + 1);
      next = r.end + 1;
    }
    expect(next).toBe(SLOT_COUNT);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('matches the formula for 3 shards', () => {
    expect(planSlots(3)).toEqual([
      { start: 0, end: 5460 },
      { start: 5461, end: 10921 },
      { start: 10922, end: 16383 },
    ]);
  });

  it.each([0, -1, SLOT_COUNT + 1, 1.5, Number.NaN])('throws for %s shards', (n) => {
    expect(() => planSlots(n)).toThrow(RangeError);
  });
});
