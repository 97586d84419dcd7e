import { describe, expect, it } from 'vitest';
import { durabilityAdvice, fleetAdvice, presetWorkloads, REDIS_WRITE_OVERHEAD_US } from './disk-profile-presets';
import { DiskProfileRequest, DISK_PROFILE_PRESETS, profileGroups, profileSeconds, profileSpaceNeeded, type ProfileResult } from './disk-profiles';

describe('disk profile presets', () => {
  it('every preset expands to valid workloads within the time bound', () => {
    for (const id of DISK_PROFILE_PRESETS) {
      const list = presetWorkloads(id);
      expect(list.length).toBeGreaterThan(0);
      expect(profileSeconds(list)).toBeLessThanOrEqual(1800);
    }
  });

  it('Rebench default is random uniform 512-byte direct reads', () => {
    expect(presetWorkloads('rebench-default')).toMatchObject([{ operation: 'read', pattern: 'random', distribution: 'uniform', blockSize: 512, direct: true }]);
  });

  it('the Redis profile runs the appends beside random reads, then the burst alone', () => {
    const list = presetWorkloads('redis', { fileSize: 4 << 20, durationSec: 1 });
    expect(profileGroups(list)).toEqual([[0, 1], [2, 3], [4]]);
    expect(profileSeconds(list)).toBe(3);
    expect(list[0]).toMatchObject({ operation: 'write', append: true, flush: 'fdatasync', flushEvery: 1, fileSize: 4 << 20, durationSec: 1 });
  });

  it('free space needed: twice the files of the largest group', () => {
    expect(profileSpaceNeeded([{ fileSize: 10 }, { fileSize: 7, group: 2 }, { fileSize: 7, group: 2 }])).toBe(28);
    expect(profileSpaceNeeded([{ fileSize: 30 }, { fileSize: 7, group: 2 }])).toBe(60);
  });

  it('a request is a preset or workloads, not both, within the time bound', () => {
    expect(DiskProfileRequest.safeParse({}).success).toBe(false);
    expect(DiskProfileRequest.safeParse({ preset: 'redis', workloads: [{}] }).success).toBe(false);
    expect(DiskProfileRequest.safeParse({ preset: 'bogus' }).error!.issues[0]!.path).toEqual(['preset']);
    const long = DiskProfileRequest.safeParse({ workloads: [{ durationSec: 600 }, { durationSec: 600 }, { durationSec: 601 }] });
    expect(long.error!.issues.map((i) => i.path.join('.'))).toContain('workloads.2.durationSec');
    const tooLong = DiskProfileRequest.safeParse({ workloads: [{ durationSec: 600 }, { durationSec: 600 }, { durationSec: 600 }, { durationSec: 1 }] });
    expect(tooLong.error!.issues.map((i) => i.path.join('.'))).toEqual(['workloads']);
  });
});

const lat = (mean: number, p99 = mean * 2) => ({ mean, p50: mean, p90: mean, p99, p999: p99, max: p99 });
const result = (name: string, o: Partial<ProfileResult>): ProfileResult => ({
  index: 0, iops: 0, mbPerSec: 0, ios: 0, bytes: 0, runtimeMs: 1000, latency: lat(1), ...o, workload: { ...presetWorkloads('redis')[0]!, name },
});

describe('durability advice', () => {
  const results = (fsyncUs: number) => [
    result('aof-always append', { write: { iops: 1, mbPerSec: 1, ios: 1, bytes: 1, latency: lat(4) }, sync: { count: 10, latency: lat(fsyncUs), histogram: [] } }),
    result('aof-everysec append', { write: { iops: 1, mbPerSec: 50, ios: 1, bytes: 1, latency: lat(2) }, sync: { count: 10, latency: lat(3000), histogram: [] } }),
    result('rdb-like write burst', { mbPerSec: 400 }),
  ];

  it('aof-always from the write + fdatasync cycle and a Redis round trip; everysec from the append rate', () => {
    const a = durabilityAdvice(results(136))!;
    const always = a.levels.find((l) => l.durability === 'aof-always')!;
    expect(always.writesPerSec).toBeCloseTo(1e6 / (4 + 136 + REDIS_WRITE_OVERHEAD_US));
    expect(a.levels.find((l) => l.durability === 'aof-everysec')!.writesPerSec).toBeCloseTo(50e6 / 256);
    expect(a.levels.find((l) => l.durability === 'none')!.writesPerSec).toBeNull();
    expect(a.snapshotMbPerSec).toBe(400);
  });

  it('none without the Redis workloads; the fleet takes the slowest node per level', () => {
    expect(durabilityAdvice(results(100).slice(1))).toBeNull();
    const f = fleetAdvice([durabilityAdvice(results(100))!, durabilityAdvice(results(1000))!])!;
    expect(f.levels.find((l) => l.durability === 'aof-always')!.writesPerSec).toBeCloseTo(1e6 / (4 + 1000 + REDIS_WRITE_OVERHEAD_US));
    expect(f.fsyncP99Us).toBe(2000);
  });
});
