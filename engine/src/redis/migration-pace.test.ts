import { describe, expect, it } from 'vitest';
import { BatchPacer, MIGRATION_PACES, migrationCosts } from './migration-pace';

describe('BatchPacer', () => {
  it('sizes batches to the time budget from the quickest recent calls', () => {
    const p = new BatchPacer(MIGRATION_PACES.balanced); // 1 ms budget
    p.observe(100, 0.5); // 5 µs a key
    expect(p.batchKeys()).toBe(200);
    p.observe(100, 3); // a call that waited for a CPU: not what a key costs
    expect(p.batchKeys()).toBe(200);
    for (let i = 0; i < 16; i++) p.observe(10, 5); // large keys: 0.5 ms each
    expect(p.batchKeys()).toBe(MIGRATION_PACES.balanced.minBatchKeys);
  });

  it('stays within its bounds', () => {
    const p = new BatchPacer(MIGRATION_PACES.fast);
    p.observe(1000, 0.001);
    expect(p.batchKeys()).toBe(MIGRATION_PACES.fast.maxBatchKeys);
    const g = new BatchPacer(MIGRATION_PACES.gentle);
    g.observe(1, 100);
    expect(g.batchKeys()).toBe(MIGRATION_PACES.gentle.minBatchKeys);
  });

  it('says a primary is busy when a probe is slower than the priority allows and than 4x the usual round trip', () => {
    const p = new BatchPacer(MIGRATION_PACES.balanced);
    expect(p.probe(0.2)).toBe(false);
    expect(p.probe(0.3)).toBe(false);
    expect(p.probe(10)).toBe(true);
    // a host where every answer takes ~3 ms: 5 ms is not busy, 20 ms is
    const slow = new BatchPacer(MIGRATION_PACES.balanced);
    for (const ms of [3, 3.2, 2.9, 3.1]) slow.probe(ms);
    expect(slow.probe(5)).toBe(false);
    expect(slow.probe(20)).toBe(true);
  });

  it('keeps the usual round trip: the low quartile of recent probes', () => {
    const p = new BatchPacer(MIGRATION_PACES.balanced);
    for (const rtt of [0.4, 0.5, 0.5, 0.6, 8]) p.probe(rtt);
    expect(p.roundTripMs()).toBe(0.5);
  });

  it('on a host where every answer takes longer than the budget, batches fit that round trip, up to 4x the budget', () => {
    const p = new BatchPacer(MIGRATION_PACES.balanced); // 1 ms budget
    for (const rtt of [2, 2, 2, 2]) p.probe(rtt);
    p.observe(100, 0.5); // 5 µs a key
    expect(p.batchKeys()).toBe(400);
    const q = new BatchPacer(MIGRATION_PACES.balanced);
    for (const rtt of [9, 9, 9, 9]) q.probe(rtt);
    q.observe(100, 0.5);
    expect(q.batchKeys()).toBe(800); // 4 ms, not 9
  });
});

describe('migrationCosts', () => {
  it('prices every priority, gentle slowest and holding a primary the shortest', () => {
    const costs = migrationCosts(250_000, 3);
    expect(costs.map((c) => c.priority)).toEqual(['gentle', 'balanced', 'fast']);
    expect(costs[0]!.estimatedSeconds).toBeGreaterThan(costs[1]!.estimatedSeconds);
    expect(costs[1]!.estimatedSeconds).toBeGreaterThan(costs[2]!.estimatedSeconds);
    expect(costs[0]!.maxBlockMs).toBeLessThan(costs[2]!.maxBlockMs);
    for (const c of costs) expect(c.summary).toContain(`${c.estimatedSeconds} s`);
  });
});
