import { describe, expect, it } from 'vitest';
import { latencyDelta, parseLatencyHistogram, summarizeBuckets } from './server-latency';

// Shape of redis-server 7.0's reply (cumulative counts per power-of-two bucket).
const before = ['get', ['calls', 50, 'histogram_usec', [8, 45, 16, 50]], 'set', ['calls', 1, 'histogram_usec', [16, 1]]];
const after = ['get', ['calls', 150, 'histogram_usec', [8, 100, 16, 140, 64, 150]], 'set', ['calls', 11, 'histogram_usec', [16, 6, 1024, 11]], 'ping', ['calls', 9, 'histogram_usec', [2, 9]]];

describe('server-side LATENCY HISTOGRAM deltas', () => {
  it('turns cumulative buckets into counts per bucket', () => {
    const p = parseLatencyHistogram(before);
    expect(p.get('get')).toEqual({ calls: 50, buckets: new Map([[8, 45], [16, 5]]) });
  });

  it('subtracts the window start from its end, over the workload commands only', () => {
    const d = latencyDelta(parseLatencyHistogram(before), parseLatencyHistogram(after), ['get', 'set']);
    // get: 8us 55, 16us 35, 64us 10; set: 16us 5, 1024us 5
    expect(d).toEqual({ calls: 110, buckets: [[8, 55], [16, 40], [64, 10], [1024, 5]] });
    const s = summarizeBuckets(d);
    expect(s).toMatchObject({ calls: 110, p50: 8, p99: 1024, p999: 1024, max: 1024 });
  });

  it('a node first seen at the end (new primary after a failover) counts from zero', () => {
    const d = latencyDelta(new Map(), parseLatencyHistogram(after), ['ping']);
    expect(summarizeBuckets(d)).toMatchObject({ calls: 9, p50: 2, max: 2 });
    expect(summarizeBuckets({ calls: 0, buckets: [] })).toMatchObject({ p50: 0, max: 0 });
  });
});
