import { describe, expect, it } from 'vitest';
import { emptyBuckets } from '@strata/engine/metrics';
import { F, INSTANCE_FIELDS, INSTANCE_SLOT_WIDTH, PRIMARY_SLOT } from './fields';
import { groupMetric, instanceMetric } from './aggregate';
import { MinuteAccumulator } from './rollup';
import { SecondRing } from './hot-window';
import { bucketRing } from './metrics-query';
import { parseTime, planRange } from './time-range';

const row = (o: Partial<Record<(typeof INSTANCE_FIELDS)[number], number>>, primary = true) => {
  const v = new Array<number>(INSTANCE_SLOT_WIDTH).fill(Number.NaN);
  for (const [k, x] of Object.entries(o)) v[F[k as keyof typeof F]] = x;
  v[PRIMARY_SLOT] = primary ? 1 : 0;
  return v;
};

describe('grouping instance values into shard and cluster series', () => {
  const primary = row({ ops_read: 100, ops_write: 50, latency_p99: 80, clients: 3 });
  const replica = row({ ops_read: 20, ops_write: 50, latency_p99: 200, clients: 1 }, false);

  it('counts replicated writes once (on the primary)', () => {
    expect(groupMetric('ops', [primary, replica])).toBe(170);
    expect(groupMetric('ops_write', [primary, replica])).toBe(50);
    expect(instanceMetric('ops', replica)).toBe(70);
  });

  it('sums gauges and takes the worst latency', () => {
    expect(groupMetric('clients', [primary, replica])).toBe(4);
    expect(groupMetric('latency_p99', [primary, replica])).toBe(200);
    expect(groupMetric('ops', [])).toBeNull();
  });

  it('makes shard series that sum to the cluster series', () => {
    const shards = [[primary, replica], [row({ ops_read: 7, ops_write: 3 })]];
    const perShard = shards.map((s) => groupMetric('ops', s)!);
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(groupMetric('ops', shards.flat()));
  });
});

describe('minute rollups', () => {
  it('average rates, keep the max lag and take percentiles of the merged histogram', () => {
    const acc = new MinuteAccumulator();
    const fast = emptyBuckets(); fast[3] = 990; // ~8 µs
    const slow = emptyBuckets(); slow[10] = 10; // ~1 ms
    expect(acc.add(120, row({ ops_read: 100 }), fast, true)).toBeNull();
    acc.addLag(121, 500);
    expect(acc.add(121, row({ ops_read: 300 }), slow, true)).toBeNull();
    const done = acc.add(180, row({ ops_read: 1 }), emptyBuckets(), true)!;
    expect(done.minute).toBe(120);
    expect(done.seconds).toBe(2);
    expect(done.values[F.ops_read]).toBe(200);
    expect(done.values[F.repl_lag]).toBe(500);
    // 1% of the minute's calls took ~1 ms: p99 sits at the edge, p99.9 inside the slow bucket.
    expect(done.values[F.latency_p50]!).toBeLessThanOrEqual(8);
    expect(done.values[F.latency_p999]!).toBeGreaterThan(512);
  });

  it('ignores a second older than the open minute', () => {
    const acc = new MinuteAccumulator();
    acc.add(180, row({ ops_read: 1 }), emptyBuckets(), true);
    expect(acc.add(100, row({ ops_read: 1 }), emptyBuckets(), true)).toBeNull();
    expect(acc.flush()!.seconds).toBe(1);
  });
});

describe('hot window', () => {
  it('keeps the last N seconds and forgets older ones', () => {
    const ring = new SecondRing(INSTANCE_SLOT_WIDTH, 10);
    for (let s = 100; s < 125; s++) ring.row(s)!.set(row({ ops_read: s }));
    expect(ring.get(124)![F.ops_read]).toBe(124);
    expect(ring.get(114)).toBeNull();
    expect(ring.row(110)).toBeNull();
    const b = bucketRing(ring, 115, 125, 5);
    expect(b.get(115)![F.ops_read]).toBe(117);
    expect(b.get(120)![F.ops_read]).toBe(122);
  });
});

describe('time ranges', () => {
  it('parses relative, unix and RFC 3339 times and refuses others', () => {
    expect(parseTime('-15m', 10_000, 'from')).toBe(10_000 - 900);
    expect(parseTime('1700000000', 0, 'from')).toBe(1_700_000_000);
    expect(parseTime('2026-01-01T00:00:00Z', 0, 'from')).toBe(1_767_225_600);
    expect(() => parseTime('yesterday', 0, 'from')).toThrow(/Invalid request|invalid/i);
  });

  it('reads the hot window, then 1 s points, then rollups', () => {
    const now = 1_000_000;
    expect(planRange({ from: now - 300 }, now, 960, 6 * 3600)).toMatchObject({ source: 'memory', step: 1 });
    expect(planRange({ from: now - 3600 }, now, 960, 6 * 3600)).toMatchObject({ source: 'raw', step: 10 });
    expect(planRange({ from: now - 7 * 86_400 }, now, 960, 6 * 3600)).toMatchObject({ source: 'rollup', step: 1800 });
    expect(() => planRange({ from: now - 4 * 3600, step: 1 }, now, 960, 6 * 3600)).toThrow();
    expect(() => planRange({ from: now, to: now - 5 }, now, 960, 6 * 3600)).toThrow();
  });
});
