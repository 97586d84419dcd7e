/** Pure helpers for disk profile results: chart series, labels and CSV/JSON exports. */
import type { DiskProfile, ProfileResult } from '@strata/api';

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export const formatUs = (us: number) => (us >= 1000 ? `${+(us / 1000).toFixed(2)} ms` : `${+us.toFixed(1)} µs`);

export const resultLabel = (r: ProfileResult) => r.workload.name ?? `workload ${r.index + 1}`;

export interface ChartPoint { x: string; values: number[] }

/** Results that differ in one parameter (≥2 distinct values), ordered by it. */
function sweep(results: readonly ProfileResult[], key: 'blockSize' | 'queueDepth'): ProfileResult[] {
  const ok = results.filter((r) => !r.error && r.workload.operation === 'read');
  if (new Set(ok.map((r) => r.workload[key])).size < 2) return [];
  return [...ok].sort((a, b) => a.workload[key] - b.workload[key]);
}

/** IOPS and MB/s against the block size. */
export const blockSizePoints = (results: readonly ProfileResult[]): ChartPoint[] =>
  sweep(results, 'blockSize').map((r) => ({ x: formatBytes(r.workload.blockSize), values: [r.iops, r.mbPerSec] }));

/** Latency percentiles (µs) against the queue depth. */
export const queueDepthPoints = (results: readonly ProfileResult[]): ChartPoint[] =>
  sweep(results, 'queueDepth').map((r) => ({ x: String(r.workload.queueDepth), values: [r.latency.p50, r.latency.p99, r.latency.p999] }));

/** The fsync/fdatasync latency histogram of the workload that synced most often. */
export function fsyncHistogram(results: readonly ProfileResult[]): { label: string; points: ChartPoint[] } | null {
  const r = [...results].filter((x) => x.sync?.count).sort((a, b) => b.sync!.count - a.sync!.count)[0];
  if (!r) return null;
  return { label: resultLabel(r), points: r.sync!.histogram.map((b) => ({ x: `≤${formatUs(b.leUs)}`, values: [b.count] })) };
}

const CSV_COLUMNS = [
  'index', 'name', 'operation', 'pattern', 'distribution', 'blockSize', 'ioCall', 'direct', 'flush', 'flushEvery', 'threads', 'queueDepth', 'fileSize', 'durationSec', 'group',
  'iops', 'mbPerSec', 'latencyMeanUs', 'latencyP50Us', 'latencyP90Us', 'latencyP99Us', 'latencyP999Us', 'latencyMaxUs', 'syncCount', 'syncP50Us', 'syncP99Us', 'error',
] as const;

const cell = (v: unknown) => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One row per workload result, with its parameters. */
export function profileCsv(p: DiskProfile): string {
  const rows = p.results.map((r) => {
    const w = r.workload;
    return [
      r.index, resultLabel(r), w.operation, w.pattern, w.distribution, w.blockSize, w.ioCall, w.direct, w.flush, w.flushEvery, w.threads, w.queueDepth, w.fileSize, w.durationSec, w.group,
      r.iops.toFixed(1), r.mbPerSec.toFixed(3), r.latency.mean, r.latency.p50, r.latency.p90, r.latency.p99, r.latency.p999, r.latency.max,
      r.sync?.count, r.sync?.latency.p50, r.sync?.latency.p99, r.error,
    ].map(cell).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
}

export const profileJson = (p: DiskProfile) => JSON.stringify(p, null, 2);
