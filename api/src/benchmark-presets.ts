/**
 * One-click benchmark presets, sized to the cluster: records fill at most
 * ~40% of the cluster's memory (a YCSB record takes ~1.3 KB in Redis) and
 * are capped so a run stays short on a small machine.
 */
import type { ClusterSpec } from './clusters';
import type { BenchmarkRequestInput } from './benchmarks';
import { shardName } from './shard-label';

export const BENCHMARK_PRESET_IDS = ['rethinkdb-a', 'rethinkdb-c', 'analytic', 'memtier-pipelined', 'failover-under-load'] as const;
export type BenchmarkPresetId = (typeof BENCHMARK_PRESET_IDS)[number];

export interface BenchmarkPreset {
  id: BenchmarkPresetId;
  title: string;
  description: string;
}

export const BENCHMARK_PRESETS: readonly BenchmarkPreset[] = [
  { id: 'rethinkdb-a', title: 'RethinkDB report: workload A', description: 'YCSB A: 50% reads, 50% single-field updates, scrambled zipfian, 1 KB records.' },
  { id: 'rethinkdb-c', title: 'RethinkDB report: workload C', description: 'YCSB C: 100% reads of whole records, scrambled zipfian.' },
  { id: 'analytic', title: 'Analytic: sentence count', description: "Counts the sentences of field0 over every record, all primaries in parallel, in small chunks; mean of 5 runs." },
  { id: 'memtier-pipelined', title: 'memtier-style 1:1 pipelined', description: 'SET:GET 1:1 of 100-byte values, pipeline 16, uniform keys: the GET/SET ceiling.' },
  {
    id: 'failover-under-load',
    title: 'Failover under load',
    description: "YCSB A while Shard 1's primary is killed (kill -9 by its agent) 5 s into the run: the throughput dip and the time without writes, next to the failover event. Needs replicas.",
  },
];

const RECORD_BYTES = 1300;

const mb = (bytes: number) => (bytes < 1024 * 1024 ? '< 1 MB' : `about ${Math.round(bytes / (1024 * 1024)).toLocaleString('en')} MB`);

/**
 * What a run of this request does to the cluster, in plain words for a
 * preset card: the load it puts on the servers, the memory its own records
 * take while it runs, a killed primary. Every run keeps to its own key space
 * and removes it afterwards, so the customer's keys are never touched.
 */
export function presetImpact(r: BenchmarkRequestInput): { impact: string; disruptive: boolean } {
  const records = r.recordCount ?? 0;
  const bytes = records * (r.workload === 'getset' ? (r.valueSize ?? 100) + 60 : RECORD_BYTES);
  const own = `Writes ${records.toLocaleString('en')} records of its own (${mb(bytes)}), removed afterwards; your keys are never read or written.`;
  const secs = (r.warmupSec ?? 0) + (r.durationSec ?? 10);
  const load = r.workload === 'analytic'
    ? 'Reads every record of the run on all primaries at once: a burst of CPU on every shard.'
    : `${r.targetOpsPerSec ? `About ${r.targetOpsPerSec.toLocaleString('en')} ops/s` : 'As many operations as the cluster takes'} for ${secs} s: its CPU is busy and your clients see higher latency meanwhile.`;
  if (r.fault) {
    return { impact: `${own} ${load} Kills the primary of ${shardName(r.fault.shard ?? 0)} (${r.fault.atSec} s in): that shard takes no writes until its replica takes over (about a second), then a replica is rebuilt.`, disruptive: true };
  }
  return { impact: `${own} ${load}`, disruptive: false };
}

export function recordsFor(spec: Pick<ClusterSpec, 'shards' | 'memoryMbPerShard'>, cap = 20_000): number {
  const fit = Math.floor((spec.shards * spec.memoryMbPerShard * 1024 * 1024 * 0.4) / RECORD_BYTES);
  return Math.max(1000, Math.min(cap, Math.floor(fit / 1000) * 1000));
}

export function presetRequest(id: BenchmarkPresetId, spec: Pick<ClusterSpec, 'shards' | 'memoryMbPerShard'>): BenchmarkRequestInput {
  const records = recordsFor(spec);
  const connections = Math.min(64, 8 * spec.shards);
  switch (id) {
    case 'rethinkdb-a':
      return { workload: 'ycsb-a', recordCount: records, durationSec: 10, warmupSec: 2, connections, pipeline: 1 };
    case 'rethinkdb-c':
      return { workload: 'ycsb-c', recordCount: records, durationSec: 10, warmupSec: 2, connections, pipeline: 1 };
    case 'analytic':
      return { workload: 'analytic', recordCount: records, connections: spec.shards, pipeline: 1, runs: 5 };
    case 'memtier-pipelined':
      return { workload: 'getset', recordCount: records, durationSec: 10, warmupSec: 2, connections, pipeline: 16, ratio: '1:1', valueSize: 100 };
    case 'failover-under-load':
      return { workload: 'ycsb-a', recordCount: records, durationSec: 20, warmupSec: 2, connections, pipeline: 1, fault: { kind: 'kill-primary', shard: 0, atSec: 5 } };
  }
}
