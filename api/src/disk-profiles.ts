/**
 * Node I/O profiles: fio workloads run by a node's agent on its data volume,
 * in Rebench's vocabulary (operation, pattern and distribution, block size,
 * I/O call, direct or buffered, flushing, threads and queue depth, workloads
 * at once, file size), with the node's disk facts and, for the Redis preset,
 * what each durability level can take on that disk.
 */
import { z, Id, Timestamp, safeString, freeText } from './common';
import { Durability } from './clusters';

export const DISK_PROFILE_PRESETS = ['rebench-default', 'block-size-sweep', 'queue-depth-sweep', 'redis'] as const;
export const DiskProfilePreset = z.enum(DISK_PROFILE_PRESETS);
export type DiskProfilePreset = z.infer<typeof DiskProfilePreset>;

const MiB = 1024 * 1024;
/** The largest test file a workload may ask for (16 TiB); free space decides what a node can take. */
export const MAX_PROFILE_FILE_BYTES = 16 * 1024 * 1024 * MiB;
/** A whole profile's time bound: the sum of its groups' durations. */
export const MAX_PROFILE_SECONDS = 1800;

export const ProfileWorkload = z
  .strictObject({
    name: safeString().min(1).max(64).optional().describe('a label for charts and exports (default: derived from the parameters)'),
    operation: z.enum(['read', 'write', 'mixed']).default('read'),
    readPercent: z.number().int().min(1).max(99).default(50).describe('mixed: the share of reads'),
    pattern: z.enum(['random', 'sequential']).default('random'),
    distribution: z.enum(['uniform', 'normal', 'zipf', 'pareto']).default('uniform').describe('random: how offsets are drawn'),
    distributionParam: z.number().positive().max(100).optional()
      .describe('zipf: theta (default 1.2, not 1); pareto: power, 0 < h < 1 (default 0.2); normal: standard deviation in % of the file (default 10)'),
    direction: z.enum(['forward', 'backward']).default('forward').describe('sequential: forward or backward through the file'),
    strideBytes: z.number().int().min(0).max(1024 * MiB).default(0).describe('sequential: bytes skipped between blocks'),
    blockSize: z.number().int().min(1).max(64 * MiB).default(4096).describe('bytes per I/O'),
    ioCall: z.enum(['pread', 'read', 'libaio', 'io_uring', 'mmap']).default('pread')
      .describe('pread: pread/pwrite; read: read/write; libaio and io_uring: asynchronous, with a queue depth; mmap: memory-mapped'),
    direct: z.boolean().default(false).describe('O_DIRECT: bypass the page cache (buffered I/O uses what the cache holds: a test file smaller than memory is cached once laid out)'),
    flush: z.enum(['none', 'fsync', 'fdatasync', 'o-sync']).default('none').describe('writes: fsync or fdatasync every flushEvery writes, or O_SYNC on every write'),
    flushEvery: z.number().int().min(1).max(1_000_000).default(1).describe('fsync/fdatasync: writes between two syncs'),
    threads: z.number().int().min(1).max(64).default(1).describe('threads running this workload, each with its own queue'),
    queueDepth: z.number().int().min(1).max(1024).default(1).describe('I/Os in flight per thread (libaio and io_uring)'),
    fileSize: z.number().int().min(64 * 1024).max(MAX_PROFILE_FILE_BYTES).default(64 * MiB).describe('bytes in the test file (space utilisation)'),
    append: z.boolean().default(false).describe('writes extend a fresh, unallocated file as an append-only log does (wrapping to its start once it reaches fileSize)'),
    noatime: z.boolean().default(false).describe('no access-time updates on the test file (O_NOATIME, set as the file attribute A)'),
    durationSec: z.number().int().min(1).max(600).default(5),
    group: z.number().int().min(0).max(63).optional().describe('workloads with the same group run at the same time; without one a workload runs alone'),
  })
  .superRefine((w, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (w.direct && w.blockSize % 512 !== 0) issue('blockSize', 'direct I/O needs a block size that is a multiple of 512 bytes');
    if (w.direct && w.ioCall === 'mmap') issue('direct', 'mmap goes through the page cache; it cannot be direct');
    if (w.blockSize > w.fileSize) issue('blockSize', 'the block size must not exceed the file size');
    if (w.queueDepth > 1 && !['libaio', 'io_uring'].includes(w.ioCall)) issue('queueDepth', 'only libaio and io_uring keep more than one I/O in flight per thread');
    if (w.pattern === 'sequential' && w.distribution !== 'uniform') issue('distribution', 'a distribution applies to random patterns only');
    if (w.pattern === 'random' && (w.direction !== 'forward' || w.strideBytes !== 0)) issue(w.strideBytes ? 'strideBytes' : 'direction', 'direction and stride apply to sequential patterns only');
    if (w.distributionParam !== undefined) {
      if (w.distribution === 'uniform') issue('distributionParam', 'the uniform distribution has no parameter');
      if (w.distribution === 'zipf' && w.distributionParam === 1) issue('distributionParam', 'zipf theta must not be 1');
      if (w.distribution === 'pareto' && w.distributionParam >= 1) issue('distributionParam', 'pareto power must be between 0 and 1');
    }
    if (w.operation === 'read' && w.flush !== 'none') issue('flush', 'flushing applies to workloads that write');
    if (w.append && w.operation !== 'write') issue('append', 'appending applies to write workloads');
    if (w.append && w.pattern !== 'sequential') issue('append', 'appends are sequential');
  })
  .openapi('ProfileWorkload');
export type ProfileWorkload = z.infer<typeof ProfileWorkload>;
export type ProfileWorkloadInput = z.input<typeof ProfileWorkload>;

/** Seconds a list of workloads takes: each group (or lone workload) runs for its longest member, one after another. */
export function profileSeconds(workloads: readonly Pick<ProfileWorkload, 'durationSec' | 'group'>[]): number {
  return profileGroups(workloads).reduce((a, g) => a + Math.max(...g.map((i) => workloads[i]!.durationSec)), 0);
}

/** Indexes of the workloads that run together, in run order (a group runs where its first member stands). */
export function profileGroups(workloads: readonly Pick<ProfileWorkload, 'group'>[]): number[][] {
  const out: number[][] = [];
  const byGroup = new Map<number, number[]>();
  workloads.forEach((w, i) => {
    if (w.group === undefined) return void out.push([i]);
    const g = byGroup.get(w.group);
    if (g) return void g.push(i);
    const list = [i];
    byGroup.set(w.group, list);
    out.push(list);
  });
  return out;
}

/** Free space a profile needs: twice the files of its largest group (a group's files are removed before the next runs). */
export function profileSpaceNeeded(workloads: readonly Pick<ProfileWorkload, 'group' | 'fileSize'>[]): number {
  return 2 * Math.max(...profileGroups(workloads).map((g) => g.reduce((a, i) => a + workloads[i]!.fileSize, 0)));
}

export const DiskProfileRequest = z
  .strictObject({
    preset: DiskProfilePreset.optional(),
    workloads: z.array(ProfileWorkload).min(1).max(32).optional(),
    fileSize: z.number().int().min(64 * 1024).max(MAX_PROFILE_FILE_BYTES).optional().describe('preset: the test file size of every workload (default per preset)'),
    durationSec: z.number().int().min(1).max(600).optional().describe('preset: seconds per workload (default per preset)'),
    force: z.boolean().default(false).describe('run even when clusters on the node are busy (their latency is shown during the run)'),
  })
  .superRefine((v, ctx) => {
    if ((v.preset === undefined) === (v.workloads === undefined)) ctx.addIssue({ code: 'custom', path: ['preset'], message: 'give a preset or a list of workloads (one of the two)' });
    if (v.workloads && v.fileSize !== undefined) ctx.addIssue({ code: 'custom', path: ['fileSize'], message: 'fileSize applies to a preset; set it on each workload' });
    if (v.workloads && v.durationSec !== undefined) ctx.addIssue({ code: 'custom', path: ['durationSec'], message: 'durationSec applies to a preset; set it on each workload' });
    if (v.workloads && profileSeconds(v.workloads) > MAX_PROFILE_SECONDS) {
      ctx.addIssue({ code: 'custom', path: ['workloads'], message: `the workloads would run ${profileSeconds(v.workloads)} s; a profile runs at most ${MAX_PROFILE_SECONDS} s` });
    }
  })
  .openapi('DiskProfileRequest');
export type DiskProfileRequest = z.infer<typeof DiskProfileRequest>;
export type DiskProfileRequestInput = z.input<typeof DiskProfileRequest>;

export const DiskProfileStatus = z.enum(['running', 'completed', 'failed', 'cancelled']);
export type DiskProfileStatus = z.infer<typeof DiskProfileStatus>;

/** Latency in microseconds. */
export const ProfileLatency = z
  .object({
    min: z.number().optional().describe('the fastest I/O: what the device (or the page cache) answers in when nothing else waits'),
    mean: z.number(), p50: z.number(), p90: z.number(), p99: z.number(), p999: z.number(), max: z.number(),
  })
  .openapi('ProfileLatency');
export type ProfileLatency = z.infer<typeof ProfileLatency>;

export const ProfileDirectionResult = z.object({
  iops: z.number(),
  mbPerSec: z.number().describe('MB/s (10^6 bytes)'),
  ios: z.number().int(),
  bytes: z.number(),
  latency: ProfileLatency.describe('completion latency, microseconds'),
});
export type ProfileDirectionResult = z.infer<typeof ProfileDirectionResult>;

export const LatencyBucket = z.object({ leUs: z.number().describe('upper bound of the bucket, microseconds'), count: z.number().int() });
export type LatencyBucket = z.infer<typeof LatencyBucket>;

export const ProfileResult = z
  .object({
    index: z.number().int().describe("the workload's position in the profile"),
    workload: ProfileWorkload,
    iops: z.number().describe('I/Os per second, reads and writes'),
    mbPerSec: z.number().describe('MB/s (10^6 bytes), reads and writes'),
    ios: z.number().int(),
    bytes: z.number(),
    runtimeMs: z.number(),
    latency: ProfileLatency.describe('completion latency of every I/O, microseconds'),
    read: ProfileDirectionResult.optional(),
    write: ProfileDirectionResult.optional(),
    sync: z.object({
      count: z.number().int(),
      latency: ProfileLatency,
      histogram: z.array(LatencyBucket).describe('power-of-two buckets (microseconds), non-empty ones'),
    }).optional().describe('fsync/fdatasync calls and their latency'),
    error: freeText().optional().describe('fio failed this workload'),
  })
  .openapi('ProfileResult');
export type ProfileResult = z.infer<typeof ProfileResult>;

export const NodeDiskFacts = z
  .object({
    dataDir: safeString(),
    device: safeString().describe('the mount source of the data volume'),
    filesystem: safeString(),
    mountOptions: safeString(),
    rotational: z.boolean().nullable().describe('the block device says it spins (null: not known)'),
    freeBytes: z.number(),
    totalBytes: z.number(),
    kernel: safeString(),
    fioVersion: safeString(),
  })
  .openapi('NodeDiskFacts');
export type NodeDiskFacts = z.infer<typeof NodeDiskFacts>;

export const DurabilityCeiling = z.object({
  durability: Durability,
  writesPerSec: z.number().nullable().describe('predicted writes per second one shard can persist on this disk with one client; null: not bounded by the disk'),
  summary: z.string(),
});
export type DurabilityCeiling = z.infer<typeof DurabilityCeiling>;

export const DurabilityAdvice = z
  .object({
    levels: z.array(DurabilityCeiling),
    fsyncP50Us: z.number(),
    fsyncP99Us: z.number(),
    appendMbPerSec: z.number().describe('buffered append throughput (aof-everysec, rewrites)'),
    snapshotMbPerSec: z.number().describe('sequential write burst throughput (RDB-like)'),
  })
  .openapi('DurabilityAdvice');
export type DurabilityAdvice = z.infer<typeof DurabilityAdvice>;

export const ProfileClusterActivity = z.object({
  clusterId: Id,
  clusterName: z.string(),
  opsPerSec: z.number().nullable(),
  latencyP99Us: z.number().nullable(),
});

export const DiskProfile = z
  .object({
    id: Id,
    nodeId: Id,
    nodeName: z.string(),
    status: DiskProfileStatus,
    preset: DiskProfilePreset.nullable(),
    workloads: z.array(ProfileWorkload).describe('what runs, in order (a preset expanded)'),
    progress: z.number().min(0).max(1),
    detail: z.string().nullable(),
    facts: NodeDiskFacts.nullable().describe("the node's data volume, read by the agent at the start"),
    results: z.array(ProfileResult),
    advice: DurabilityAdvice.nullable().describe('the Redis preset: predicted write ceiling of each durability level'),
    clusters: z.array(ProfileClusterActivity).describe('clusters with instances on the node, with their load when the run started (and during it, on the stream)'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .openapi('DiskProfile');
export type DiskProfile = z.infer<typeof DiskProfile>;

export const DiskProfileAccepted = z.object({ profile: DiskProfile }).openapi('DiskProfileAccepted');
export const DiskProfileList = z.object({ items: z.array(DiskProfile) }).openapi('DiskProfileList');
export type DiskProfileList = z.infer<typeof DiskProfileList>;

export const DiskProfileProgressEvent = z
  .object({
    status: DiskProfileStatus,
    progress: z.number(),
    detail: z.string().nullable(),
    result: ProfileResult.optional().describe('a workload that just finished'),
    clusters: z.array(ProfileClusterActivity).optional().describe('load of the clusters on the node this second'),
  })
  .openapi('DiskProfileProgressEvent');
export type DiskProfileProgressEvent = z.infer<typeof DiskProfileProgressEvent>;

export const DiskProfileStreamEnd = z.object({ status: DiskProfileStatus }).openapi('DiskProfileStreamEnd');

/** Per node, its newest Redis profile's advice; `fleet` is the lowest ceiling over them (a shard may land on any node). */
export const DurabilityAdviceList = z
  .object({
    fleet: DurabilityAdvice.nullable(),
    items: z.array(z.object({ nodeId: Id, nodeName: z.string(), profileId: Id, profiledAt: Timestamp, advice: DurabilityAdvice })),
  })
  .openapi('DurabilityAdviceList');
export type DurabilityAdviceList = z.infer<typeof DurabilityAdviceList>;

/** The agent's task: the workloads to run, in order, bounded in time. */
export const DiskProfileTaskSpec = z.object({
  profileId: Id,
  workloads: z.array(ProfileWorkload),
  timeLimitSec: z.number().int().describe('the agent kills fio past this'),
});

/** An agent's report on a running profile; answered with whether to stop. */
export const DiskProfileReport = z
  .strictObject({
    progress: z.number().min(0).max(1),
    detail: freeText().max(500).optional(),
    facts: NodeDiskFacts.optional(),
    result: ProfileResult.optional(),
    finished: z.object({ status: z.enum(['completed', 'failed', 'cancelled']), code: safeString().max(64).optional(), message: freeText().max(2000).optional() }).optional(),
  })
  .openapi('DiskProfileReport');
export type DiskProfileReport = z.infer<typeof DiskProfileReport>;

export const DiskProfileCommand = z.object({ stop: z.boolean() }).openapi('DiskProfileCommand');
export type DiskProfileCommand = z.infer<typeof DiskProfileCommand>;
