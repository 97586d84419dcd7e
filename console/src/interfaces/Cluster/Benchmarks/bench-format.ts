import { shardName } from '@strata/api';
import type { Benchmark, BenchmarkPoint, BenchmarkResult, LatencySummary } from '@strata/api';

/** Microseconds as "87 µs", "1.25 ms", "2.1 s". */
export function formatUs(us: number): string {
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

export function formatOps(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(2)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}

/** Percentile positions for the latency plot: x = -log10(1 - p). */
export const PERCENTILES: { key: keyof LatencySummary; label: string; x: number }[] = [
  { key: 'p50', label: 'p50', x: Math.log10(2) },
  { key: 'p95', label: 'p95', x: Math.log10(20) },
  { key: 'p99', label: 'p99', x: 2 },
  { key: 'p999', label: 'p99.9', x: 3 },
  { key: 'max', label: 'max', x: 4 },
];

export function percentileLabel(x: number): string {
  const near = PERCENTILES.find((p) => Math.abs(p.x - x) < 0.05);
  if (near) return near.label;
  return `${(100 * (1 - Math.pow(10, -x))).toFixed(x < 1 ? 0 : 1)}%`;
}

export function seriesData(points: BenchmarkPoint[]): [number[], number[], number[], number[], (number | null)[]] {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  return [sorted.map((p) => p.t), sorted.map((p) => p.ops), sorted.map((p) => p.p50), sorted.map((p) => p.p99), sorted.map((p) => p.writes ?? null)];
}

/**
 * Marks for the time series of a fault run: the kill, the failover event,
 * and the span without writes to the shard. A point at second t counts the
 * second before t, so marks are placed on the same axis (seconds since the
 * steady phase began).
 */
export function faultMarks(r: BenchmarkResult): { x: number; to?: number; label: string; color: string }[] {
  const f = r.fault;
  if (!f) return [];
  const out: { x: number; to?: number; label: string; color: string }[] = [];
  if (f.writeGapStartT !== undefined && f.writeGapEndT !== undefined && f.writeGapMs > 0) {
    out.push({ x: f.writeGapStartT, to: f.writeGapEndT, label: `no writes to ${shardName(f.shard)}: ${formatUs(f.writeGapMs * 1000)}`, color: '#d93a32' });
  }
  if (f.injectedAtT !== undefined) out.push({ x: f.injectedAtT, label: `primary killed (${shardName(f.shard)})`, color: '#d93a32' });
  if (f.failoverAtT !== undefined) out.push({ x: f.failoverAtT, label: `failover${f.failoverCause ? ` (${f.failoverCause})` : ''}`, color: '#1f8a4c' });
  return out;
}

export const WORKLOAD_LABELS: Record<string, string> = {
  'ycsb-a': 'YCSB A (50/50 read/update)',
  'ycsb-b': 'YCSB B (95/5 read/update)',
  'ycsb-c': 'YCSB C (read only)',
  'ycsb-d': 'YCSB D (read latest / insert)',
  'ycsb-f': 'YCSB F (read-modify-write)',
  getset: 'GET/SET (memtier-style)',
  analytic: 'Analytic sentence count',
};

export function headline(r: BenchmarkResult): string {
  if (r.analytic) return `${formatOps(r.analytic.recordsPerSec)} records/s`;
  return `${formatOps(r.opsPerSec)} ops/s`;
}

export interface ScalingPoint {
  shards: number;
  opsPerSec: number;
  p95: number;
  /** ops/s of each shard in the steady window */
  shardOps: number[];
  valid: boolean;
  benchmarkId: string;
}

/**
 * A scaling study from a cluster's run history (e.g. `npm run bench:scaling`,
 * or runs made by hand between resizes): for one workload, the latest
 * finished run at each shard count, sorted by shards. p95 is the main op's
 * (read for YCSB, get for getset).
 */
export function scalingPoints(items: readonly Benchmark[], workload: string): ScalingPoint[] {
  const latest = new Map<number, Benchmark>();
  for (const b of items) {
    if (b.workload !== workload || b.state !== 'succeeded' || !b.result || b.request.fault || b.result.environment.shards < 1) continue;
    const prev = latest.get(b.result.environment.shards);
    if (!prev || prev.createdAt < b.createdAt) latest.set(b.result.environment.shards, b);
  }
  return [...latest.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([shards, b]) => {
      const r = b.result!;
      const main = r.ops.find((o) => o.op === 'read' || o.op === 'get') ?? r.ops[0];
      return {
        shards, opsPerSec: r.opsPerSec, p95: main?.service.p95 ?? 0, shardOps: r.shards.map((s) => (r.steadySec > 0 ? s.clientOps / r.steadySec : 0)), valid: r.validity.valid, benchmarkId: b.id,
      };
    });
}

/** Workloads with runs at two or more shard counts. */
export function scalingWorkloads(items: readonly Benchmark[]): string[] {
  const byWorkload = new Map<string, Set<number>>();
  for (const b of items) {
    if (b.state !== 'succeeded' || !b.result || b.request.fault || b.workload === 'analytic') continue;
    const set = byWorkload.get(b.workload) ?? new Set<number>();
    set.add(b.result.environment.shards);
    byWorkload.set(b.workload, set);
  }
  return [...byWorkload.entries()].filter(([, s]) => s.size >= 2).map(([w]) => w).sort();
}
