import { describe, expect, it } from 'vitest';
import type { BenchmarkResult } from '@strata/api';
import { faultMarks, seriesData } from './bench-format';

const base = { series: [], ops: [], shards: [] } as unknown as BenchmarkResult;

describe('fault marks on the time series', () => {
  it('marks the kill, the failover and the span without writes, on the steady-phase axis', () => {
    const r = { ...base, fault: { kind: 'kill-primary', shard: 0, instanceId: 'x', endpoint: '10.0.0.1:7000', injectedAtT: 5.01, failoverAtT: 7.2, failoverCause: 'process-crash', writeGapMs: 2350, writeGapStartT: 5.02, writeGapEndT: 7.37, errors: 40 } } as BenchmarkResult;
    expect(faultMarks(r)).toEqual([
      { x: 5.02, to: 7.37, label: 'no writes to shard 0: 2.35 s', color: '#d93a32' },
      { x: 5.01, label: 'primary killed (shard 0)', color: '#d93a32' },
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
