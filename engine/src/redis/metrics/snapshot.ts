/**
 * One raw reading of an instance (cumulative counters as Redis reports them)
 * and the difference of two readings: what the metrics sampler pushes.
 */
import type { InstanceMetricSample } from '../../domain';
import { addBuckets, bucketDelta, emptyBuckets, type BucketCounts } from './latency-histogram';
import { counterDelta } from './counters';
import type { CommandClass, CommandStat, ReplicaOffset } from './info.parser';

export interface RawSnapshot {
  /** When the replies arrived (ms). */
  atMs: number;
  runId: string;
  role: 'primary' | 'replica';
  commands: Map<string, CommandStat>;
  /** Per-command latency buckets (per-bucket counts since start). */
  latency: Map<string, BucketCounts>;
  clients: number;
  usedMemory: number;
  maxMemory: number;
  keys: number;
  evicted: number;
  expired: number;
  hits: number;
  misses: number;
  netIn: number;
  netOut: number;
  cpuSeconds: number;
  replicas: ReplicaOffset[];
}

export type SampleValues = Omit<InstanceMetricSample, 'instanceId' | 'clusterId' | 'ts'>;

/**
 * What happened between two readings. `classOf` names each command's class;
 * `own` lists the commands the sampler itself sent per reading (they are
 * taken out of `others`). A changed run_id or a counter that went down means
 * a restart: the current reading then counts from zero.
 */
export function diffSnapshots(
  prev: RawSnapshot, cur: RawSnapshot, classOf: (command: string) => CommandClass, own: ReadonlyMap<string, number> = new Map(),
): SampleValues {
  const restarted = prev.runId !== cur.runId || cur.cpuSeconds < prev.cpuSeconds;
  const counts = { read: 0, write: 0, other: 0 };
  let usec = 0;
  const latency = emptyBuckets();
  for (const [name, stat] of cur.commands) {
    const before = restarted ? undefined : prev.commands.get(name);
    const calls = restarted ? stat.calls : counterDelta(before?.calls ?? 0, stat.calls);
    const klass = classOf(name);
    counts[klass] += klass === 'other' ? Math.max(0, calls - (own.get(name) ?? 0)) : calls;
    if (klass !== 'other') {
      usec += restarted ? stat.usec : counterDelta(before?.usec ?? 0, stat.usec);
      const buckets = cur.latency.get(name);
      if (buckets) addBuckets(latency, restarted ? buckets : bucketDelta(prev.latency.get(name) ?? emptyBuckets(), buckets).delta);
    }
  }
  const d = (a: number, b: number) => counterDelta(a, b, restarted);
  return {
    intervalMs: Math.max(1, Math.round(cur.atMs - prev.atMs)),
    role: cur.role,
    restarted,
    reads: counts.read,
    writes: counts.write,
    others: counts.other,
    latency,
    latencySumUs: usec,
    clients: cur.clients,
    usedMemory: cur.usedMemory,
    maxMemory: cur.maxMemory,
    keys: cur.keys,
    evicted: d(prev.evicted, cur.evicted),
    expired: d(prev.expired, cur.expired),
    hits: d(prev.hits, cur.hits),
    misses: d(prev.misses, cur.misses),
    netIn: d(prev.netIn, cur.netIn),
    netOut: d(prev.netOut, cur.netOut),
    cpuSeconds: Math.max(0, d(prev.cpuSeconds, cur.cpuSeconds)),
    replicas: cur.replicas.slice(0, 16),
  };
}
