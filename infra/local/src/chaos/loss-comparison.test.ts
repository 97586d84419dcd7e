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

  it('matches the exact test on a small sample (p of U = 0 for 3 vs 3 is 1/20 one-sided, 0.04 with continuity correction here)', () => {
    // Exact one-sided p for complete separation of 3 vs 3 is 0.05; the normal approximation with continuity gives ~0.04.
    expect(compareLosses([4, 5, 6], [1, 2, 3]).p).toBeCloseTo(0.04, 2);
  });

  it('all zero on both sides (nothing lost) is no difference', () => {
    expect(compareLosses([0, 0, 0], [0, 0, 0])).toEqual({ medianStrata: 0, medianBaseline: 0, p: 1, losesMore: false });
    expect(median([])).toBe(0);
  });
});
