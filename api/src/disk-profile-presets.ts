/**
 * The one-click disk profiles, and what the Redis profile means for each
 * durability level. Pure: the control plane expands presets and computes the
 * advice with these, the console shows the same descriptions.
 */
import type { Durability } from './clusters';
import {
  ProfileWorkload, type DiskProfilePreset, type DiskProfileRequest, type DurabilityAdvice, type DurabilityCeiling, type ProfileResult, type ProfileWorkloadInput,
} from './disk-profiles';

const MiB = 1024 * 1024;

export interface DiskProfilePresetInfo {
  id: DiskProfilePreset;
  title: string;
  description: string;
  fileSize: number;
  durationSec: number;
}

export const DISK_PROFILE_PRESET_INFO: readonly DiskProfilePresetInfo[] = [
  { id: 'rebench-default', title: 'Rebench default', description: "Random uniform 512-byte direct reads, one thread: the Rebench report's first run.", fileSize: 256 * MiB, durationSec: 10 },
  { id: 'block-size-sweep', title: 'Block size sweep', description: 'Random direct reads from 512 B to 1 MiB: IOPS and MB/s against the block size.', fileSize: 256 * MiB, durationSec: 5 },
  { id: 'queue-depth-sweep', title: 'Queue depth sweep', description: 'Random 4 KiB direct reads through libaio at queue depth 1 to 64: latency percentiles against the queue depth.', fileSize: 256 * MiB, durationSec: 5 },
  {
    id: 'redis', title: 'Redis profile',
    description: 'An AOF-like append with fdatasync on every write, then one with fdatasync every 1,000 writes, each beside random reads, then an RDB-like sequential write burst: what each durability level can take.',
    fileSize: 64 * MiB, durationSec: 5,
  },
];

/** Bytes of one SET of a 100-byte value in the append-only file (RESP: *3, $3 SET, the key, the value). */
export const AOF_ENTRY_BYTES = 256;
/** Writes between two fdatasync calls in the "every second" workload: roughly a second of a busy shard's writes. */
const EVERYSEC_FLUSH_EVERY = 1000;

const sizes = [512, 4096, 16 * 1024, 64 * 1024, 256 * 1024, MiB];
const depths = [1, 2, 4, 8, 16, 32, 64];

/** The workloads of a preset, with its file size and duration unless the request gives others. */
export function presetWorkloads(preset: DiskProfilePreset, opts: { fileSize?: number; durationSec?: number } = {}): ProfileWorkload[] {
  const info = DISK_PROFILE_PRESET_INFO.find((p) => p.id === preset)!;
  const fileSize = opts.fileSize ?? info.fileSize;
  const durationSec = opts.durationSec ?? info.durationSec;
  const base = { fileSize, durationSec };
  let list: ProfileWorkloadInput[];
  switch (preset) {
    case 'rebench-default':
      list = [{ ...base, name: 'random 512 B reads', operation: 'read', pattern: 'random', blockSize: 512, direct: true }];
      break;
    case 'block-size-sweep':
      list = sizes.filter((bs) => bs <= fileSize).map((bs) => ({ ...base, name: `random reads ${label(bs)}`, operation: 'read', pattern: 'random', blockSize: bs, direct: true }));
      break;
    case 'queue-depth-sweep':
      list = depths.map((qd) => ({ ...base, name: `random 4 KiB reads QD ${qd}`, operation: 'read', pattern: 'random', blockSize: 4096, direct: true, ioCall: 'libaio', queueDepth: qd }));
      break;
    case 'redis':
      list = [
        { ...base, name: 'aof-always append', operation: 'write', pattern: 'sequential', append: true, blockSize: AOF_ENTRY_BYTES, ioCall: 'read', flush: 'fdatasync', flushEvery: 1, group: 0 },
        { ...base, name: 'random reads beside aof-always', operation: 'read', pattern: 'random', blockSize: 4096, group: 0 },
        { ...base, name: 'aof-everysec append', operation: 'write', pattern: 'sequential', append: true, blockSize: AOF_ENTRY_BYTES, ioCall: 'read', flush: 'fdatasync', flushEvery: EVERYSEC_FLUSH_EVERY, group: 1 },
        { ...base, name: 'random reads beside aof-everysec', operation: 'read', pattern: 'random', blockSize: 4096, group: 1 },
        // rdb-save-incremental-fsync: Redis fsyncs a snapshot every 32 MB while writing it.
        { ...base, name: 'rdb-like write burst', operation: 'write', pattern: 'sequential', blockSize: MiB, ioCall: 'read', flush: 'fsync', flushEvery: 32 },
      ];
      break;
  }
  return list.map((w) => ProfileWorkload.parse(w));
}

/** The workloads a request runs: its list, or its preset expanded. */
export function requestWorkloads(r: Pick<DiskProfileRequest, 'preset' | 'workloads' | 'fileSize' | 'durationSec'>): ProfileWorkload[] {
  return r.workloads ?? presetWorkloads(r.preset!, { fileSize: r.fileSize, durationSec: r.durationSec });
}

function label(bytes: number): string {
  return bytes >= MiB ? `${bytes / MiB} MiB` : bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes} B`;
}

/**
 * What one Redis write costs besides the disk: the client's round trip and the command's execution on
 * the event loop (measured on loopback here: redis-benchmark SET with one client and no persistence,
 * ~60 us). aof-always adds the AOF write() and fdatasync() to every write of a lone client.
 */
export const REDIS_WRITE_OVERHEAD_US = 60;

const perSec = (us: number) => (us > 0 ? 1e6 / us : 0);

/**
 * The write ceiling of each durability level on the disk the Redis preset measured: aof-always from
 * the append-with-fdatasync cycle (one client waits for one write() and one fdatasync() per write),
 * aof-everysec from the buffered append throughput (fsync runs in a background thread; Redis only
 * waits when one takes over 2 s), none from nothing on disk. Null when the results lack a workload.
 */
export function durabilityAdvice(results: readonly ProfileResult[]): DurabilityAdvice | null {
  const find = (name: string) => results.find((r) => r.workload.name === name && !r.error);
  const always = find('aof-always append');
  const everysec = find('aof-everysec append');
  const burst = find('rdb-like write burst');
  if (!always?.write || !always.sync || !everysec?.write || !burst) return null;
  const cycleUs = always.write.latency.mean + always.sync.latency.mean;
  const alwaysPerSec = perSec(cycleUs + REDIS_WRITE_OVERHEAD_US);
  const appendMbPerSec = everysec.write.mbPerSec;
  const everysecPerSec = (appendMbPerSec * 1e6) / AOF_ENTRY_BYTES;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const stall = (everysec.sync?.latency.p99 ?? 0) > 2e6;
  const levels: DurabilityCeiling[] = [
    { durability: 'none', writesPerSec: null, summary: 'Nothing is written to disk: writes are bounded by CPU and network, not by this disk.' },
    {
      durability: 'aof-everysec', writesPerSec: everysecPerSec,
      summary: `The disk appends ${appendMbPerSec.toFixed(1)} MB/s (~${fmt(everysecPerSec)} writes/s of ${AOF_ENTRY_BYTES} B): below that rate writes are bounded by CPU, not by this disk; `
        + (stall ? 'but an fsync took over 2 s, when Redis delays writes.' : `fsync p99 ${(everysec.sync!.latency.p99 / 1000).toFixed(1)} ms, well under the 2 s at which Redis would delay writes.`),
    },
    {
      durability: 'aof-always', writesPerSec: alwaysPerSec,
      summary: `~${fmt(alwaysPerSec)} writes/s per client writing one at a time (write + fdatasync ${cycleUs.toFixed(0)} us, fdatasync p99 ${(always.sync.latency.p99 / 1000).toFixed(2)} ms); `
        + 'concurrent clients share an fdatasync per event-loop turn, so more clients get more writes per second.',
    },
  ];
  return {
    levels,
    fsyncP50Us: always.sync.latency.p50,
    fsyncP99Us: always.sync.latency.p99,
    appendMbPerSec,
    snapshotMbPerSec: burst.mbPerSec,
  };
}

/** The lowest ceiling per level over several nodes' advice (a shard can be placed on any of them). */
export function fleetAdvice(list: readonly DurabilityAdvice[]): DurabilityAdvice | null {
  if (!list.length) return null;
  const worst = (get: (a: DurabilityAdvice) => number, max = false) => list.reduce((m, a) => (max ? Math.max(m, get(a)) : Math.min(m, get(a))), max ? 0 : Infinity);
  const levelOf = (a: DurabilityAdvice, d: Durability) => a.levels.find((l) => l.durability === d)!;
  const levels = list[0]!.levels.map((l) => {
    const slowest = list.reduce((s, a) => ((levelOf(a, l.durability).writesPerSec ?? Infinity) < (levelOf(s, l.durability).writesPerSec ?? Infinity) ? a : s), list[0]!);
    return levelOf(slowest, l.durability);
  });
  return {
    levels,
    fsyncP50Us: worst((a) => a.fsyncP50Us, true),
    fsyncP99Us: worst((a) => a.fsyncP99Us, true),
    appendMbPerSec: worst((a) => a.appendMbPerSec),
    snapshotMbPerSec: worst((a) => a.snapshotMbPerSec),
  };
}
