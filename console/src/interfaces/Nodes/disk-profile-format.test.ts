import { describe, expect, it } from 'vitest';
import { ProfileWorkload, type DiskProfile, type ProfileResult } from '@strata/api';
import { blockSizePoints, formatBytes, fsyncHistogram, profileCsv, queueDepthPoints } from './disk-profile-format';

const lat = { mean: 10, p50: 9, p90: 12, p99: 20, p999: 30, max: 40 };
const r = (index: number, w: Partial<ProfileWorkload>, extra: Partial<ProfileResult> = {}): ProfileResult => ({
  index, workload: ProfileWorkload.parse(w), iops: 1000 / (index + 1), mbPerSec: index + 1, ios: 100, bytes: 100, runtimeMs: 1000, latency: { ...lat, p50: 9 + index }, ...extra,
});

describe('disk profile charts and exports', () => {
  it('IOPS and MB/s against block size, only for a sweep', () => {
    expect(blockSizePoints([r(1, { blockSize: 65536 }), r(0, { blockSize: 512 })])).toEqual([{ x: '512 B', values: [1000, 1] }, { x: '64 KiB', values: [500, 2] }]);
    expect(blockSizePoints([r(0, {})])).toEqual([]);
  });

  it('latency percentiles against queue depth', () => {
    const pts = queueDepthPoints([r(0, { ioCall: 'libaio', queueDepth: 1 }), r(1, { ioCall: 'libaio', queueDepth: 32 })]);
    expect(pts).toEqual([{ x: '1', values: [9, 20, 30] }, { x: '32', values: [10, 20, 30] }]);
  });

  it('the fsync histogram of the workload that synced most', () => {
    const sync = (count: number) => ({ count, latency: lat, histogram: [{ leUs: 128, count }] });
    const h = fsyncHistogram([r(0, { name: 'a', operation: 'write', flush: 'fsync' }, { sync: sync(5) }), r(1, { name: 'b', operation: 'write', flush: 'fsync' }, { sync: sync(50) })]);
    expect(h).toEqual({ label: 'b', points: [{ x: '≤128 µs', values: [50] }] });
    expect(fsyncHistogram([r(0, {})])).toBeNull();
  });

  it('CSV: a header and one row per workload, quoted where needed', () => {
    const csv = profileCsv({ results: [r(0, { name: 'reads, cached' })] } as DiskProfile).trim().split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[0]!.split(',')).toContain('iops');
    expect(csv[1]).toContain('"reads, cached"');
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
  });
});
