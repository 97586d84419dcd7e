import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKET_COUNT } from '../../domain';
import {
  bucketDelta, bucketIndex, bucketsFromCumulative, counterDelta, diffSnapshots, emptyBuckets, LATENCY_BUCKETS, parseCommandStats,
  parseInfoFields, parseLatencyHistogramReply, quantileUs, ratePerSecond, replicaOffsets, type RawSnapshot,
} from './index';

const buckets = (entries: Record<number, number>) => {
  const b = emptyBuckets();
  for (const [i, n] of Object.entries(entries)) b[Number(i)] = n;
  return b;
};

describe('latency histogram', () => {
  it('has as many buckets as the API schema', () => expect(LATENCY_BUCKETS).toBe(LATENCY_BUCKET_COUNT));

  it('maps Redis bucket bounds (1, 2, 4, 16, 33, 66, 131 µs) to power-of-two indexes', () => {
    expect([1, 2, 4, 8, 16, 33, 66, 131, 262, 525, 1049].map(bucketIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('turns cumulative counts into per-bucket counts', () => {
    // Real reply shape: get calls 20001 histogram_usec 1 19967 2 19985 4 19993 16 19997 33 20001
    const parsed = parseLatencyHistogramReply(['get', ['calls', 20001, 'histogram_usec', [1, 19967, 2, 19985, 4, 19993, 16, 19997, 33, 20001]]]);
    expect(parsed.get('get')!.calls).toBe(20001);
    expect(parsed.get('get')!.buckets.slice(0, 6)).toEqual([19967, 18, 8, 0, 4, 4]);
    expect(bucketsFromCumulative([[4, 10], [1, 5]]).slice(0, 3)).toEqual([5, 0, 5]);
  });

  it('takes percentiles of the delta between two samples, not of the totals since start', () => {
    const before = buckets({ 3: 1000 }); // 1000 old calls at ~8 µs
    const after = buckets({ 3: 1000, 10: 100 }); // 100 new calls at ~1 ms
    const { delta, reset } = bucketDelta(before, after);
    expect(reset).toBe(false);
    const p50 = quantileUs(delta, 0.5)!;
    expect(p50).toBeGreaterThan(512);
    expect(p50).toBeLessThanOrEqual(1024);
    // Of the totals the median would be ~8 µs: the since-start view hides the slow second.
    expect(quantileUs(after, 0.5)!).toBeLessThanOrEqual(8);
  });

  it('interpolates inside a bucket and reports null for an empty second', () => {
    expect(quantileUs(buckets({ 4: 100 }), 0.5)).toBe(12); // (8,16] halfway
    expect(quantileUs(buckets({ 4: 99, 10: 1 }), 0.999)!).toBeGreaterThan(512);
    expect(quantileUs(emptyBuckets(), 0.99)).toBeNull();
  });

  it('treats a bucket that went down as a restart: the new counts are the delta', () => {
    const { delta, reset } = bucketDelta(buckets({ 2: 500 }), buckets({ 2: 20, 3: 5 }));
    expect(reset).toBe(true);
    expect(delta[2]).toBe(20);
    expect(delta[3]).toBe(5);
  });
});

describe('rate math', () => {
  it('is the difference over the interval', () => {
    expect(counterDelta(100, 350)).toBe(250);
    expect(ratePerSecond(250, 500)).toBe(500);
    expect(counterDelta(undefined, 350)).toBe(0);
  });

  it('counts from zero after a counter reset or restart', () => {
    expect(counterDelta(1_000_000, 40)).toBe(40);
    expect(counterDelta(10, 40, true)).toBe(40);
  });
});

const snap = (over: Partial<RawSnapshot>): RawSnapshot => ({
  atMs: 0, runId: 'a', role: 'primary', commands: new Map(), latency: new Map(), clients: 1, usedMemory: 1, maxMemory: 0, keys: 0,
  evicted: 0, expired: 0, hits: 0, misses: 0, netIn: 0, netOut: 0, cpuSeconds: 1, replicas: [], ...over,
});
const classOf = (c: string) => (c === 'get' ? 'read' : c === 'set' ? 'write' : 'other') as 'read' | 'write' | 'other';

describe('diffSnapshots', () => {
  it('splits calls into read, write and other, without the sampler\'s own commands', () => {
    const prev = snap({ atMs: 1000, commands: new Map([['get', { calls: 100, usec: 100 }], ['set', { calls: 50, usec: 100 }], ['info', { calls: 10, usec: 10 }]]) });
    const cur = snap({
      atMs: 2000, hits: 7, cpuSeconds: 1.01,
      commands: new Map([['get', { calls: 400, usec: 400 }], ['set', { calls: 150, usec: 300 }], ['info', { calls: 11, usec: 11 }], ['ping', { calls: 3, usec: 1 }]]),
      latency: new Map([['get', buckets({ 1: 300 })], ['set', buckets({ 2: 100 })]]),
    });
    const v = diffSnapshots(prev, cur, classOf, new Map([['info', 1]]));
    expect(v).toMatchObject({ reads: 300, writes: 100, others: 3, intervalMs: 1000, restarted: false, hits: 7, latencySumUs: 500 });
    expect(v.cpuSeconds).toBeCloseTo(0.01);
    expect(v.latency[1]).toBe(300);
    expect(v.latency[2]).toBe(100);
  });

  it('after a restart (new run_id) counts what the new process did, never a negative rate', () => {
    const prev = snap({ atMs: 1000, runId: 'a', cpuSeconds: 50, hits: 10_000, commands: new Map([['get', { calls: 1_000_000, usec: 9 }]]), latency: new Map([['get', buckets({ 1: 1_000_000 })]]) });
    const cur = snap({ atMs: 3000, runId: 'b', cpuSeconds: 0.2, hits: 30, commands: new Map([['get', { calls: 120, usec: 9 }]]), latency: new Map([['get', buckets({ 1: 120 })]]) });
    const v = diffSnapshots(prev, cur, classOf);
    expect(v).toMatchObject({ restarted: true, reads: 120, hits: 30, intervalMs: 2000 });
    expect(v.latency[1]).toBe(120);
    expect(v.cpuSeconds).toBeCloseTo(0.2);
  });
});

describe('INFO parsing', () => {
  it('reads commandstats and each replica\'s offset lag', () => {
    const f = parseInfoFields('# Commandstats\r\ncmdstat_get:calls=5,usec=10,usec_per_call=2.00\r\ncmdstat_client|setname:calls=1,usec=1\r\n# Replication\r\nrole:master\r\nmaster_repl_offset:1000\r\nslave0:ip=127.0.0.2,port=7001,state=online,offset=900,lag=0\r\n');
    expect(parseCommandStats(f).get('get')).toEqual({ calls: 5, usec: 10 });
    expect(parseCommandStats(f).get('client|setname')?.calls).toBe(1);
    expect(replicaOffsets(f)).toEqual([{ host: '127.0.0.2', port: 7001, lagBytes: 100 }]);
  });
});
