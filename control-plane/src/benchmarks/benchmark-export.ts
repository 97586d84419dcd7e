/** Export of a finished benchmark: JSON with HdrHistogram logs, or CSV of the time series and per-op stats. */
import { decodeHistogram, histogramLog } from '@strata/bench';
import type { Benchmark } from '@strata/api';
import type { BenchmarkHistograms } from '../stores/benchmark.store';

export function exportJson(b: Benchmark, h: BenchmarkHistograms | null): unknown {
  const hdr: Record<string, { merged: string; log: string }> = {};
  if (h) {
    for (const o of h.ops) {
      const intervals = h.intervals
        .filter((i) => i.op === o.op)
        .map((i) => ({ startSec: i.t - 1, endSec: i.t, tag: o.op, histogram: decodeHistogram(i.service) }));
      hdr[o.op] = { merged: o.service, log: histogramLog(intervals, h.startTimeMs) };
    }
  }
  return { benchmark: b, hdr, units: { latency: 'microseconds' } };
}

export function exportCsv(b: Benchmark): string {
  const lines = ['section,t_or_op,ops,ops_per_sec,p50_us,p95_us,p99_us,p999_us,max_us,errors,misses'];
  const r = b.result;
  if (r) {
    for (const o of r.ops) {
      const s = o.service;
      lines.push(['op', o.op, o.count, o.opsPerSec.toFixed(1), s.p50, s.p95, s.p99, s.p999, s.max, o.errors, o.misses].join(','));
    }
    for (const p of r.series) lines.push(['second', p.t, p.ops, p.ops, p.p50, '', p.p99, '', '', p.errors, ''].join(','));
    for (const s of r.shards) lines.push(['shard', s.endpoint, s.clientOps, '', '', '', '', '', '', '', ''].join(','));
  }
  return lines.join('\n') + '\n';
}
