/**
 * One-click benchmark presets, sized to the cluster: records fill at most
 * ~40% of the cluster's memory (a YCSB record takes ~1.3 KB in Redis) and
 * are capped so a run stays short on a small machine.
 */
import type { ClusterSpec } from './clusters';
import type { BenchmarkRequestInput } from './benchmarks';

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
    description: "YCSB A while shard 0's primary is killed (kill -9 by its agent) 5 s into the run: the throughput dip and the time without writes, next to the failover event. Needs replicas.",
  },
];

const RECORD_BYTES = 1300;

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
