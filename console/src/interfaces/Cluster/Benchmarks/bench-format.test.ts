import { describe, expect, it } from 'vitest';
import type { Benchmark, BenchmarkResult } from '@strata/api';
import { faultMarks, scalingPoints, scalingWorkloads, seriesData } from './bench-format';

const base = { series: [], ops: [], shards: [] } as unknown as BenchmarkResult;

describe('fault marks on the time series', () => {
  it('marks the kill, the failover and the span without writes, on the steady-phase axis', () => {
    const r = { ...base, fault: { kind: 'kill-primary', shard: 0, instanceId: 'x', endpoint: '10.0.0.1:7000', injectedAtT: 5.01, failoverAtT: 7.2, failoverCause: 'process-crash', writeGapMs: 2350, writeGapStartT: 5.02, writeGapEndT: 7.37, errors: 40 } } as BenchmarkResult;
    expect(faultMarks(r)).toEqual([
      { x: 5.02, to: 7.37, label: 'no writes to shard 1: 2.35 s', color: '#d93a32' },
      { x: 5.01, label: 'primary killed (shard 1)', color: '#d93a32' },
      { x: 7.2, label: 'failover (process-crash)', color: '#1f8a4c' },
    ]);
  });

  it('no fault, no marks; a fault never injected has no kill mark', () => {
    expect(faultMarks(base)).toEqual([]);
    expect(faultMarks({ ...base, fault: { kind: 'kill-primary', shard: 1, instanceId: 'x', endpoint: 'e', writeGapMs: 0, errors: 0 } } as BenchmarkResult)).toEqual([]);
  });

  it('series carry writes per second when the workload writes', () => {
    expect(seriesData([{ t: 2, ops: 10, p50: 1, p99: 2, errors: 0, writes: 4 }, { t: 1, ops: 5, p50: 1, p99: 2, errors: 0 }])[4]).toEqual([null, 4]);
  });
});

describe('scaling from the run history', () => {
  const run = (id: string, shards: number, opsPerSec: number, createdAt: string, over: Record<string, unknown> = {}) => ({
    id, workload: 'ycsb-c', state: 'succeeded', createdAt, request: {},
    result: { opsPerSec, steadySec: 2, environment: { shards }, validity: { valid: true }, ops: [{ op: 'read', service: { p95: 100 * shards } }], shards: Array.from({ length: shards }, () => ({ clientOps: opsPerSec })) },
    ...over,
  }) as unknown as Benchmark;

  it('the latest finished run per shard count, sorted, with per-shard ops/s; faults and other workloads left out', () => {
    const items = [
      run('a', 2, 2000, '2026-01-01T00:00:02Z'),
      run('b', 1, 1000, '2026-01-01T00:00:01Z'),
      run('c', 2, 2500, '2026-01-01T00:00:03Z'),
      run('d', 3, 9999, '2026-01-01T00:00:04Z', { request: { fault: { kind: 'kill-primary' } } }),
      run('e', 3, 100, '2026-01-01T00:00:05Z', { workload: 'ycsb-a' }),
      run('f', 4, 100, '2026-01-01T00:00:06Z', { state: 'failed' }),
    ];
    expect(scalingPoints(items, 'ycsb-c')).toEqual([
      { shards: 1, opsPerSec: 1000, p95: 100, shardOps: [500], valid: true, benchmarkId: 'b' },
      { shards: 2, opsPerSec: 2500, p95: 200, shardOps: [1250, 1250], valid: true, benchmarkId: 'c' },
    ]);
    expect(scalingWorkloads(items)).toEqual(['ycsb-c']);
  });
});
