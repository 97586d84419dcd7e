/**
 * 1-minute rollups built in memory as samples arrive (pure code): rates and
 * gauges are averaged over the seconds present, replication lag is the
 * minute's maximum, and latency percentiles come from the minute's merged
 * latency histogram (never an average of per-second percentiles).
 */
import { addBuckets, emptyBuckets, percentiles, type BucketCounts } from '@strata/engine/metrics';
import { F, INSTANCE_FIELDS } from './fields';

const LATENCY = new Set([F.latency_p50, F.latency_p95, F.latency_p99, F.latency_p999]);

export interface RollupRow {
  /** Unix seconds of the minute's start. */
  minute: number;
  values: number[];
  isPrimary: boolean;
  seconds: number;
}

export class MinuteAccumulator {
  private minute = -1;
  private seconds = 0;
  private sums = new Float64Array(INSTANCE_FIELDS.length);
  private counts = new Float64Array(INSTANCE_FIELDS.length);
  private lagMax = Number.NaN;
  private buckets: BucketCounts = emptyBuckets();
  private primary = false;

  /**
   * Adds one second. Returns the previous minute's row when `sec` starts a
   * new minute. A second older than the open minute is ignored (its 1 s
   * point is still stored).
   */
  add(sec: number, values: ArrayLike<number>, buckets: ReadonlyArray<number>, isPrimary: boolean): RollupRow | null {
    const minute = sec - (sec % 60);
    let done: RollupRow | null = null;
    if (minute < this.minute) return null;
    if (minute > this.minute) {
      done = this.flush();
      this.minute = minute;
    }
    this.seconds++;
    this.primary = isPrimary;
    addBuckets(this.buckets, buckets);
    for (let i = 0; i < INSTANCE_FIELDS.length; i++) {
      const x = values[i] ?? NaN;
      if (!Number.isFinite(x) || LATENCY.has(i)) continue;
      this.sums[i]! += x;
      this.counts[i]! += 1;
    }
    return done;
  }

  /** Replication lag reported (by the primary) for a second of this instance. */
  addLag(sec: number, lagBytes: number): void {
    if (sec - (sec % 60) !== this.minute) return;
    this.lagMax = Number.isFinite(this.lagMax) ? Math.max(this.lagMax, lagBytes) : lagBytes;
  }

  /** The open minute's row (and a fresh start), or null when empty. */
  flush(): RollupRow | null {
    if (this.minute < 0 || this.seconds === 0) return null;
    const values = INSTANCE_FIELDS.map((_, i) => (this.counts[i]! > 0 ? this.sums[i]! / this.counts[i]! : Number.NaN));
    const p = percentiles(this.buckets);
    values[F.latency_p50] = p.p50 ?? NaN;
    values[F.latency_p95] = p.p95 ?? NaN;
    values[F.latency_p99] = p.p99 ?? NaN;
    values[F.latency_p999] = p.p999 ?? NaN;
    values[F.repl_lag] = this.lagMax;
    const row: RollupRow = { minute: this.minute, values, isPrimary: this.primary, seconds: this.seconds };
    this.seconds = 0;
    this.sums.fill(0);
    this.counts.fill(0);
    this.lagMax = Number.NaN;
    this.buckets = emptyBuckets();
    return row;
  }

  openMinute(): number {
    return this.minute;
  }
}

/** Averages of node values per minute. */
export class NodeMinuteAccumulator {
  private minute = -1;
  private sums: number[] = [];
  private n = 0;

  add(sec: number, values: ReadonlyArray<number>): { minute: number; values: number[] } | null {
    const minute = sec - (sec % 60);
    if (minute < this.minute) return null;
    const done = minute > this.minute ? this.flush() : null;
    this.minute = minute;
    if (!this.n) this.sums = values.map(() => 0);
    values.forEach((v, i) => (this.sums[i]! += v));
    this.n++;
    return done;
  }

  flush(): { minute: number; values: number[] } | null {
    if (this.minute < 0 || !this.n) return null;
    const row = { minute: this.minute, values: this.sums.map((s) => s / this.n) };
    this.n = 0;
    return row;
  }

  openMinute(): number {
    return this.minute;
  }
}
