import { describe, expect, it } from 'vitest';
import { compareLosses, median } from './loss-comparison';

describe('compareLosses', () => {
  it('finds no difference between samples drawn alike, whatever a few large runs do to the totals', () => {
    const strata = [9, 11, 11, 12, 14, 14, 14, 16, 17, 18, 19, 23, 122, 124, 186, 233, 252, 275, 416, 423];
    const redis = [5, 8, 9, 10, 11, 12, 12, 16, 17, 20, 20, 23, 34, 44, 55, 134, 161, 202, 349, 351];
    const c = compareLosses(strata, redis);
    expect(c.medianStrata).toBe(18.5);
    expect(c.medianBaseline).toBe(20);
    expect(c.p).toBeGreaterThan(0.05);
    expect(c.losesMore).toBe(false);
  });

  it('says Strata loses more when its per-run losses are clearly greater', () => {
    const c = compareLosses([30, 31, 35, 40, 41, 44, 50, 52, 60, 61], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(c.p).toBeLessThan(0.001);
    expect(c.losesMore).toBe(true);
    // And not the other way round.
    expect(compareLosses([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [30, 31, 35, 40, 41, 44, 50, 52, 60, 61]).losesMore).toBe(false);
  });

  it('is exact on small samples: complete separation of 3 runs against 3 is p = 1/20, not below 0.05', () => {
    const c = compareLosses([4, 5, 6], [1, 2, 3]);
    expect(c.p).toBeCloseTo(0.05, 10);
    expect(c.losesMore).toBe(false);
    // 4 against 4 separated: 1/70.
    expect(compareLosses([5, 6, 7, 8], [1, 2, 3, 4]).p).toBeCloseTo(1 / 70, 10);
  });

  it('counts ties by their mid-ranks: all equal is p = 1, one run above the rest is its share of the splits', () => {
    expect(compareLosses([7, 7, 7], [7, 7, 7]).p).toBe(1);
    // Pooled [1, 1, 1, 5]: Strata holds the 5 in half of the C(4,2) = 6 splits.
    expect(compareLosses([1, 5], [1, 1]).p).toBeCloseTo(0.5, 10);
  });

  it('agrees with the normal approximation above the exact range', () => {
    const a = Array.from({ length: 45 }, (_, i) => i * 2 + 1);
    const b = Array.from({ length: 45 }, (_, i) => i * 2);
    const c = compareLosses(a, b);
    expect(c.p).toBeGreaterThan(0.3);
    expect(c.p).toBeLessThan(0.5);
  });

  it('all zero on both sides (nothing lost) is no difference', () => {
    expect(compareLosses([0, 0, 0], [0, 0, 0])).toEqual({ medianStrata: 0, medianBaseline: 0, p: 1, losesMore: false });
    expect(median([])).toBe(0);
  });
});
