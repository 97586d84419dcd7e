import { describe, expect, it } from 'vitest';
import { BenchmarkRequest } from '@strata/api';
import { buildResult, longestWriteGap, newHistogram, recordUs, encodeHistogram, type HostRun, type OpCounts } from './index';

const req = (over: Record<string, unknown> = {}) => BenchmarkRequest.parse({ workload: 'ycsb-a', recordCount: 1000, durationSec: 2, ...over });

function ops(op: string, values: number[], extra: Partial<OpCounts> = {}): OpCounts {
  const h = newHistogram();
  for (const v of values) recordUs(h, v);
  return { op, count: values.length, errors: 0, misses: 0, service: encodeHistogram(h), ...extra };
}

function host(over: Partial<HostRun> = {}): HostRun {
  return {
    nodeId: '00000000-0000-4000-8000-000000000001', host: '127.0.0.1', threads: 1, connections: 4,
    ops: [ops('read', [100, 200, 300]), ops('update', [400, 500])],
    endpointCommands: { '127.0.0.1:7000': 3, '127.0.0.1:7001': 2 }, steadyStartMs: 10_000, steadyEndMs: 12_000, maxElu: 0.5, redirects: 0, ...over,
  };
}

const env = { engineVersion: '7', shards: 2, replicasPerShard: 0, durability: 'none' };

describe('buildResult', () => {
  it('merges hosts: throughput over the steady window, per-op percentiles, per-shard client vs server ops', () => {
    const r = buildResult({ request: req(), seed: 3, hosts: [host({ engine: 'native' }), host({ nodeId: '00000000-0000-4000-8000-000000000002', host: '127.0.0.2', engine: 'js', engineNote: 'the native worker is not built' })], intervals: [{ t: 1, ops: [ops('read', [100])] }], keyCount: 1000, serverCommands: { '127.0.0.1:7000': 6 }, lostWorkers: [], environment: env });
    expect(r.totalOps).toBe(10);
    expect(r.steadySec).toBe(2);
    expect(r.opsPerSec).toBe(5);
    expect(r.ops.find((o) => o.op === 'read')).toMatchObject({ count: 6, service: { p50: 200, max: 300 } });
    expect(r.shards).toEqual([{ endpoint: '127.0.0.1:7000', clientOps: 6, serverOps: 6 }, { endpoint: '127.0.0.1:7001', clientOps: 4, serverOps: undefined }]);
    expect(r.series).toEqual([{ t: 1, ops: 1, p50: 100, p99: 100, errors: 0, writes: 0 }]);
    expect(r.validity).toEqual({ valid: true, reasons: [], coordinatedOmission: true });
    expect(r.environment).toMatchObject({ mode: 'capacity', seed: 3 });
    // which engine ran each host's run phase
    expect(r.workers.map((w) => w.engine)).toEqual(['native', 'js']);
    // and why a host ran js
    expect(r.workers.map((w) => w.engineNote)).toEqual([undefined, 'the native worker is not built']);
  });

  it('names every failing gate', () => {
    const r = buildResult({
      request: req({ targetOpsPerSec: 100 }), seed: 1,
      hosts: [host({ maxElu: 0.93, scheduleLagP99Us: 2500, redirects: 1, ops: [ops('read', [1, 2], { errors: 1, misses: 2 })], firstError: 'ERR boom' })],
      intervals: [], keyCount: 999, lostWorkers: ['the worker on node 127.0.0.3 stopped reporting for 16 s'], environment: env,
    });
    expect(r.validity.valid).toBe(false);
    expect(r.validity.coordinatedOmission).toBe(false);
    expect(r.validity.reasons.map((x) => x.gate).sort()).toEqual(['client-cpu', 'errors', 'key-count', 'misses', 'redirects', 'schedule-lag', 'worker-lost']);
    expect(r.validity.reasons.find((x) => x.gate === 'errors')!.message).toContain('ERR boom');
    expect(r.validity.reasons.find((x) => x.gate === 'client-cpu')!.message).toContain('93%');
  });

  it('analytic: mean of runs, records/s, records visited checked', () => {
    const r = buildResult({
      request: req({ workload: 'analytic' }), seed: 1, hosts: [], intervals: [], lostWorkers: [], environment: env,
      analyticRuns: [{ records: 1000, sentences: 2100, ms: 100, longestBatchMs: 3, errors: 0 }, { records: 999, sentences: 2099, ms: 300, longestBatchMs: 5, errors: 0 }],
    });
    expect(r.analytic).toMatchObject({ records: 999, meanMs: 200, recordsPerSec: 4995, longestBlockMs: 5, runsMs: [100, 300] });
    expect(r.validity.reasons.map((x) => x.gate)).toEqual(['key-count']);
  });
});

describe('longestWriteGap', () => {
  const bits = (set: (i: number) => boolean, n = 400) => {
    const b = new Uint8Array(n / 8);
    for (let i = 0; i < n; i++) if (set(i)) b[i >> 3]! |= 1 << (i & 7);
    return Buffer.from(b).toString('base64');
  };
  it('ORs the hosts and finds the longest span without a write inside the window', () => {
    // host 1 writes slots 0..99 and 250..399, host 2 writes only slot 150: gaps 100..149 (50) and 151..249 (99)
    const h1 = { writeSlots: { startMs: 1000, slotMs: 10, bits: bits((i) => i < 100 || i >= 250) } };
    const h2 = { writeSlots: { startMs: 1000, slotMs: 10, bits: bits((i) => i === 150) } };
    expect(longestWriteGap([h1, h2], 1000, 5000)).toEqual({ ms: 990, startMs: 1000 + 151 * 10 });
    // a window that excludes the long gap
    expect(longestWriteGap([h1, h2], 1000, 2500)).toEqual({ ms: 500, startMs: 2000 });
    expect(longestWriteGap([{}], 0, 100)).toEqual({ ms: 0, startMs: 0 });
    // only gaps that begin by `startsBy` count (a fault's gap, not a later stall); one may run on past it
    expect(longestWriteGap([h1, h2], 1000, 5000, 2200)).toEqual({ ms: 500, startMs: 2000 });
    expect(longestWriteGap([h1, h2], 1000, 5000, 2600)).toEqual({ ms: 990, startMs: 2510 });
  });
});
