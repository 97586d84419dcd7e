import { describe, expect, it } from 'vitest';
import { ProfileWorkload } from '@strata/api';
import { latencyOf, parseFioOutput, powerOfTwoHistogram, toProfileResult, type FioJob } from './fio-result';

const dir = (iops: number, ios: number, bins: Record<string, number>, mean: number) => ({
  iops, bw_bytes: iops * 4096, io_bytes: ios * 4096, total_ios: ios, runtime: 1000,
  clat_ns: { mean, max: Math.max(...Object.keys(bins).map(Number)), bins }, lat_ns: { mean, max: 0 },
});
const none = { iops: 0, bw_bytes: 0, io_bytes: 0, total_ios: 0, runtime: 0, clat_ns: { mean: 0, max: 0 }, lat_ns: { mean: 0, max: 0 } };

describe('fio JSON+ to a result', () => {
  it('finds the JSON after fio notes', () => {
    expect(parseFioOutput('note: both iodepth >= 1 and synchronous I/O engine are selected\n{\n "fio version": "fio-3.33", "jobs": []}')['fio version']).toBe('fio-3.33');
    expect(() => parseFioOutput('fio: failed')).toThrow(/no JSON/);
  });

  it('percentiles from the histogram; mixed directions merged; sums for iops and bytes', () => {
    const job: FioJob = {
      jobname: 'w0', groupid: 0, error: 0,
      read: dir(900, 900, { 10000: 899, 1000000: 1 }, 11_100),
      write: dir(100, 100, { 50000: 100 }, 50_000),
      sync: { total_ios: 0, lat_ns: { N: 0, mean: 0, max: 0 } },
    };
    const r = toProfileResult(job, 0, ProfileWorkload.parse({ operation: 'mixed', readPercent: 90 }));
    expect(r.iops).toBe(1000);
    expect(r.bytes).toBe(1000 * 4096);
    expect(r.mbPerSec).toBeCloseTo((1000 * 4096) / 1e6);
    expect(r.latency.p50).toBe(10);
    expect(r.latency.p99).toBe(50);
    expect(r.latency.max).toBe(1000);
    expect(r.latency.mean).toBeCloseTo((11.1 * 900 + 50 * 100) / 1000, 1);
    expect(r.read!.latency.p999).toBe(1000);
    expect(r.sync).toBeUndefined();
  });

  it('sync latency with a power-of-two histogram', () => {
    const lat = { N: 4, mean: 150_000, max: 400_000, bins: { 100000: 2, 120000: 1, 400000: 1 } };
    expect(powerOfTwoHistogram(lat)).toEqual([{ leUs: 128, count: 3 }, { leUs: 512, count: 1 }]);
    const r = toProfileResult({ jobname: 'w1', groupid: 0, error: 0, read: none, write: dir(10, 4, { 3000: 4 }, 3000), sync: { total_ios: 0, lat_ns: lat } }, 1, ProfileWorkload.parse({ operation: 'write', flush: 'fsync' }));
    expect(r.sync!.count).toBe(4);
    expect(r.sync!.latency.p50).toBe(100);
    expect(latencyOf([lat], [4]).p99).toBe(400);
    // The fastest I/O: the smaller of the directions that ran; one that did not run (N 0, min 0) does not count.
    expect(latencyOf([{ N: 2, min: 3500, mean: 4000, max: 4500, bins: { 3500: 1, 4500: 1 } }, { N: 0, min: 0, mean: 0, max: 0 }], [2, 0]).min).toBe(3.5);
    expect(latencyOf([{ N: 1, min: 9000, mean: 9000, max: 9000, bins: { 9000: 1 } }, { N: 1, min: 2000, mean: 2000, max: 2000, bins: { 2000: 1 } }], [1, 1]).min).toBe(2);
    // A bucket named past the largest sample does not put a percentile above the max.
    expect(latencyOf([{ N: 2, mean: 1000, max: 1010, bins: { 1000: 1, 1016: 1 } }], [2])).toMatchObject({ p99: 1.01, max: 1.01 });
  });
});
