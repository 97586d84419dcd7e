import { describe, expect, it } from 'vitest';
import { ProfileWorkload } from '@strata/api';
import { fioArgs, fioRw, workloadArgs } from './fio-job';

const w = (x: Partial<ProfileWorkload> = {}) => ProfileWorkload.parse(x);

describe('fio options from Rebench parameters', () => {
  it.each([
    [{}, 'randread'],
    [{ operation: 'write' }, 'randwrite'],
    [{ operation: 'mixed' }, 'randrw'],
    [{ pattern: 'sequential' }, 'read'],
    [{ pattern: 'sequential', strideBytes: 8192 }, 'read:8192'],
    // fio adds bs + modifier after each I/O: -(2 bs + stride) steps back one block and the stride.
    [{ pattern: 'sequential', direction: 'backward', blockSize: 4096 }, 'read:-8192'],
    [{ pattern: 'sequential', direction: 'backward', blockSize: 4096, strideBytes: 4096, operation: 'write' }, 'write:-12288'],
  ] as const)('%o -> rw=%s', (x, rw) => expect(fioRw(w(x as Partial<ProfileWorkload>))).toBe(rw));

  it('maps I/O call, flushing, distribution and the rest', () => {
    const a = workloadArgs(w({ operation: 'write', ioCall: 'read', flush: 'fdatasync', flushEvery: 4, threads: 3, blockSize: 512, direct: true, fileSize: 1 << 20, durationSec: 2 }), 7, '/d');
    expect(a).toEqual(expect.arrayContaining(['--name=w7', '--new_group', '--filename=/d/workload-7.dat', '--ioengine=sync', '--fdatasync=4', '--numjobs=3', '--bs=512', '--direct=1', '--size=1048576', '--runtime=2', '--time_based']));
    expect(workloadArgs(w({ distribution: 'zipf' }), 0, '/d')).toContain('--random_distribution=zipf:1.2');
    expect(workloadArgs(w({ distribution: 'normal', distributionParam: 5 }), 0, '/d')).toContain('--random_distribution=normal:5');
    expect(workloadArgs(w({ operation: 'write', flush: 'o-sync' }), 0, '/d')).toContain('--sync=sync');
    expect(workloadArgs(w({ operation: 'mixed', readPercent: 70 }), 0, '/d')).toContain('--rwmixread=70');
    expect(workloadArgs(w({ ioCall: 'io_uring', queueDepth: 32 }), 0, '/d')).toEqual(expect.arrayContaining(['--ioengine=io_uring', '--iodepth=32']));
    expect(workloadArgs(w({ operation: 'write', pattern: 'sequential', append: true }), 0, '/d')).toContain('--fallocate=none');
  });

  it('one invocation per group: threads, JSON+, one section per workload', () => {
    const list = [w({ group: 1 }), w({ blockSize: 512 }), w({ group: 1, operation: 'write' })];
    const a = fioArgs(list, [0, 2], '/d');
    expect(a.slice(0, 4)).toEqual(['--thread', '--group_reporting', '--output-format=json+', '--eta=never']);
    expect(a.filter((x) => x.startsWith('--name='))).toEqual(['--name=w0', '--name=w2']);
  });
});

describe('nonsense refused, naming the field', () => {
  it.each([
    [{ blockSize: 0 }, 'blockSize'],
    [{ queueDepth: 10_000, ioCall: 'libaio' }, 'queueDepth'],
    [{ queueDepth: 8 }, 'queueDepth'],
    [{ pattern: 'spiral' }, 'pattern'],
    [{ direct: true, blockSize: 1000 }, 'blockSize'],
    [{ direct: true, ioCall: 'mmap' }, 'direct'],
    [{ flush: 'fsync' }, 'flush'],
    [{ pattern: 'sequential', distribution: 'zipf' }, 'distribution'],
    [{ distribution: 'zipf', distributionParam: 1 }, 'distributionParam'],
    [{ fileSize: 65536, blockSize: 1 << 20 }, 'blockSize'],
    [{ append: true }, 'append'],
  ] as const)('%o', (x, field) => {
    const r = ProfileWorkload.safeParse(x);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});
