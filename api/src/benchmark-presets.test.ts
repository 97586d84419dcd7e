import { describe, expect, it } from 'vitest';
import { BENCHMARK_PRESETS, presetImpact, presetRequest } from './benchmark-presets';

describe('benchmark preset impact', () => {
  const spec = { shards: 3, memoryMbPerShard: 256 };
  it('every preset says what it does to the cluster and that the customer keys are untouched', () => {
    for (const p of BENCHMARK_PRESETS) {
      const { impact } = presetImpact(presetRequest(p.id, spec));
      expect(impact, p.id).toMatch(/^Writes [\d,]+ records of its own \(.*\), removed afterwards; your keys are never read or written\./);
    }
  });
  it('only the failover preset is disruptive, and names the shard it kills counting from 1', () => {
    const r = presetImpact(presetRequest('failover-under-load', spec));
    expect(r.disruptive).toBe(true);
    expect(r.impact).toContain('Kills the primary of shard 1 (5 s in)');
    expect(BENCHMARK_PRESETS.filter((p) => presetImpact(presetRequest(p.id, spec)).disruptive).map((p) => p.id)).toEqual(['failover-under-load']);
  });
});
