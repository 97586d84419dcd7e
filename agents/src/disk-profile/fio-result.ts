/**
 * fio's JSON+ report of one reporting group (one workload) to a ProfileResult:
 * IOPS and MB/s per direction and together, completion latency percentiles
 * from fio's full histogram (both directions merged), fsync/fdatasync latency
 * and its power-of-two histogram. Pure.
 */
import type { LatencyBucket, ProfileDirectionResult, ProfileLatency, ProfileResult, ProfileWorkload } from '@strata/api';

/** The parts of fio's JSON+ a result is made of. */
interface FioLat { N?: number; min?: number; max: number; mean: number; bins?: Record<string, number>; percentile?: Record<string, number> }
interface FioDir { iops: number; bw_bytes: number; io_bytes: number; total_ios: number; runtime: number; clat_ns: FioLat; lat_ns: FioLat }
export interface FioJob { jobname: string; groupid: number; error: number; read: FioDir; write: FioDir; sync?: { total_ios: number; lat_ns: FioLat } }
export interface FioReport { 'fio version': string; jobs: FioJob[] }

/** The JSON document in fio's stdout (it may print notes before it). */
export function parseFioOutput(stdout: string): FioReport {
  const start = stdout.indexOf('{\n');
  if (start < 0) throw new Error(`fio printed no JSON report: ${stdout.slice(0, 300)}`);
  return JSON.parse(stdout.slice(start)) as FioReport;
}

type Bins = [ns: number, count: number][];
const binsOf = (...lats: (FioLat | undefined)[]): Bins => {
  const m = new Map<number, number>();
  for (const l of lats) for (const [k, v] of Object.entries(l?.bins ?? {})) m.set(Number(k), (m.get(Number(k)) ?? 0) + v);
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
};

/** The value (ns) at or below which `q` of the samples lie. */
function quantile(bins: Bins, total: number, q: number): number {
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [ns, count] of bins) {
    seen += count;
    if (seen >= rank) return ns;
  }
  return bins.at(-1)?.[0] ?? 0;
}

/** Latency in microseconds from histograms (merged) with their counts' weighted mean and the largest max. */
export function latencyOf(lats: FioLat[], counts: number[]): ProfileLatency {
  const bins = binsOf(...lats);
  const total = bins.reduce((a, [, c]) => a + c, 0);
  const n = counts.reduce((a, b) => a + b, 0);
  const mean = n ? lats.reduce((a, l, i) => a + l.mean * counts[i]!, 0) / n : 0;
  const us = (ns: number) => Math.round(ns / 10) / 100;
  const mins = lats.filter((l) => (l.N ?? 1) > 0 && l.min !== undefined).map((l) => l.min!);
  const min = mins.length ? { min: us(Math.min(...mins)) } : {};
  if (!total) return { ...min, mean: us(mean), p50: 0, p90: 0, p99: 0, p999: 0, max: us(Math.max(0, ...lats.map((l) => l.max))) };
  // fio's histogram buckets are ~1.5% wide and named by a value that can lie past the largest sample.
  const max = Math.max(...lats.map((l) => l.max));
  const q = (x: number) => us(Math.min(max, quantile(bins, total, x)));
  return { ...min, mean: us(mean), p50: q(0.5), p90: q(0.9), p99: q(0.99), p999: q(0.999), max: us(max) };
}

/** Counts in power-of-two microsecond buckets: bucket `leUs` holds samples in (leUs/2, leUs]. */
export function powerOfTwoHistogram(lat: FioLat): LatencyBucket[] {
  const out = new Map<number, number>();
  for (const [ns, count] of binsOf(lat)) {
    const us = Math.max(1, ns / 1000);
    const le = 2 ** Math.ceil(Math.log2(us));
    out.set(le, (out.get(le) ?? 0) + count);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([leUs, count]) => ({ leUs, count }));
}

function direction(d: FioDir): ProfileDirectionResult | undefined {
  if (!d.total_ios) return undefined;
  return { iops: d.iops, mbPerSec: d.bw_bytes / 1e6, ios: d.total_ios, bytes: d.io_bytes, latency: latencyOf([d.clat_ns], [d.total_ios]) };
}

export function toProfileResult(job: FioJob, index: number, workload: ProfileWorkload): ProfileResult {
  const read = direction(job.read);
  const write = direction(job.write);
  const dirs = [job.read, job.write].filter((d) => d.total_ios > 0);
  // Wall time of the group (fio's job_runtime adds up its threads' times).
  const runtimeMs = Math.max(job.read.runtime, job.write.runtime);
  const syncN = job.sync?.lat_ns.N ?? 0;
  return {
    index,
    workload,
    iops: (read?.iops ?? 0) + (write?.iops ?? 0),
    mbPerSec: (read?.mbPerSec ?? 0) + (write?.mbPerSec ?? 0),
    ios: (read?.ios ?? 0) + (write?.ios ?? 0),
    bytes: (read?.bytes ?? 0) + (write?.bytes ?? 0),
    runtimeMs,
    latency: latencyOf(dirs.map((d) => d.clat_ns), dirs.map((d) => d.total_ios)),
    ...(read ? { read } : {}),
    ...(write ? { write } : {}),
    ...(syncN > 0 ? { sync: { count: syncN, latency: latencyOf([job.sync!.lat_ns], [syncN]), histogram: powerOfTwoHistogram(job.sync!.lat_ns) } } : {}),
    ...(job.error ? { error: `fio reported error ${job.error} for this workload` } : {}),
  };
}
