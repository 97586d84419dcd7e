/**
 * A sliding window of live points for charts (pure code): seeded from a
 * history query, appended from the SSE stream, trimmed to `seconds`.
 * Columns are uPlot-ready: [timestamps, ...one array per series key].
 */
import type { MetricsResult, MetricsStreamEvent } from '@strata/api';

export type SeriesKey = string;

/** `ops` for a cluster series, `ops@2` for shard 2. */
export const seriesKey = (metric: string, shard: number | null): SeriesKey => (shard === null ? metric : `${metric}@${shard}`);

/** Cluster value of a metric from shard values: sums, or the worst shard for latency and lag. */
export function combineShards(metric: string, values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (!present.length) return null;
  return metric.startsWith('latency_') || metric === 'repl_lag' ? Math.max(...present) : present.reduce((a, b) => a + b, 0);
}

export class LiveWindow {
  readonly timestamps: number[] = [];
  readonly columns = new Map<SeriesKey, (number | null)[]>();

  constructor(readonly seconds: number) {}

  private column(key: SeriesKey): (number | null)[] {
    let c = this.columns.get(key);
    if (!c) this.columns.set(key, (c = new Array<number | null>(this.timestamps.length).fill(null)));
    return c;
  }

  /** Seeds from a history result (step 1, by shard): shard columns plus combined cluster columns. */
  seed(result: MetricsResult): void {
    this.timestamps.length = 0;
    this.columns.clear();
    this.timestamps.push(...result.timestamps);
    for (const s of result.series) this.columns.set(seriesKey(s.metric, s.shard), [...s.values]);
    this.recombine(0);
    this.trim();
  }

  /** Appends (or replaces) the point of one stream event. */
  push(e: MetricsStreamEvent): void {
    let i = this.timestamps.indexOf(e.ts);
    if (i < 0) {
      if (this.timestamps.length && e.ts < this.timestamps[this.timestamps.length - 1]!) return;
      this.timestamps.push(e.ts);
      for (const c of this.columns.values()) c.push(null);
      i = this.timestamps.length - 1;
    }
    for (const s of e.series) this.column(seriesKey(s.metric, s.shard))[i] = s.value;
    this.recombine(i);
    this.trim();
  }

  private recombine(from: number): void {
    const metrics = new Set([...this.columns.keys()].filter((k) => k.includes('@')).map((k) => k.split('@')[0]!));
    for (const m of metrics) {
      const shardCols = [...this.columns.entries()].filter(([k]) => k.startsWith(`${m}@`)).map(([, c]) => c);
      const total = this.column(m);
      const last = this.timestamps.length - 1;
      for (let i = from; i <= last; i++) {
        // The newest second while its shards' points still arrive (one node's push before another's): a partial sum
        // would show a dip (or half the keys) at the right edge. It is filled once every shard that had a value has one.
        const arriving = i === last && i > 0 && shardCols.some((c) => (c[i] ?? null) === null && (c[i - 1] ?? null) !== null);
        total[i] = arriving ? null : combineShards(m, shardCols.map((c) => c[i] ?? null));
      }
    }
  }

  private trim(): void {
    const last = this.timestamps[this.timestamps.length - 1];
    if (last === undefined) return;
    let drop = 0;
    while (drop < this.timestamps.length && this.timestamps[drop]! <= last - this.seconds) drop++;
    if (!drop) return;
    this.timestamps.splice(0, drop);
    for (const c of this.columns.values()) c.splice(0, drop);
  }

  /** Shard indexes present, ascending. */
  shards(): number[] {
    return [...new Set([...this.columns.keys()].filter((k) => k.includes('@')).map((k) => Number(k.split('@')[1])))].sort((a, b) => a - b);
  }

  latest(key: SeriesKey): number | null {
    const c = this.columns.get(key);
    if (!c) return null;
    for (let i = c.length - 1; i >= Math.max(0, c.length - 3); i--) if (c[i] !== null && c[i] !== undefined) return c[i]!;
    return null;
  }
}
