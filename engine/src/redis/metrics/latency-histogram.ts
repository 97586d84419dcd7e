/**
 * Redis `LATENCY HISTOGRAM` replies as power-of-two buckets, their deltas
 * between two samples, and percentiles of a delta (pure code).
 *
 * Redis reports, per command, cumulative counts keyed by a bucket's upper
 * bound in microseconds (1, 2, 4, 8, 16, 33, 66, 131 …: the HDR histogram's
 * "highest equivalent value" of each power-of-two bucket) and omits buckets
 * that add nothing. Strata maps every bound to its power-of-two index
 * (bucket i holds latencies in (2^(i-1), 2^i] µs) so two samples, or two
 * instances, always line up.
 */

/** Number of buckets kept: 2^0 µs .. 2^26 µs (~67 s); slower calls land in the last one. */
export const LATENCY_BUCKETS = 27;

/** Upper bound of bucket i in microseconds. */
export const bucketUpperUs = (i: number): number => 2 ** i;

/** Per-bucket counts (not cumulative), length LATENCY_BUCKETS. */
export type BucketCounts = number[];

export const emptyBuckets = (): BucketCounts => new Array<number>(LATENCY_BUCKETS).fill(0);

export function bucketIndex(boundUs: number): number {
  if (!(boundUs > 1)) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.round(Math.log2(boundUs)));
}

/** Turns one command's cumulative `histogram_usec` map into per-bucket counts. */
export function bucketsFromCumulative(cumulative: ReadonlyArray<[boundUs: number, cumulativeCount: number]>): BucketCounts {
  const out = emptyBuckets();
  let previous = 0;
  for (const [bound, cum] of [...cumulative].sort((a, b) => a[0] - b[0])) {
    out[bucketIndex(bound)]! += Math.max(0, cum - previous);
    previous = Math.max(previous, cum);
  }
  return out;
}

export function addBuckets(into: BucketCounts, add: ReadonlyArray<number>): BucketCounts {
  for (let i = 0; i < LATENCY_BUCKETS; i++) into[i] = (into[i] ?? 0) + (add[i] ?? 0);
  return into;
}

/**
 * Delta of two per-bucket snapshots of the same counter set. When any bucket
 * went down the instance was restarted (or CONFIG RESETSTAT ran): everything
 * in the current snapshot happened since then, so it is the delta.
 */
export function bucketDelta(previous: ReadonlyArray<number> | undefined, current: ReadonlyArray<number>): { delta: BucketCounts; reset: boolean } {
  if (!previous) return { delta: emptyBuckets(), reset: false };
  const delta = emptyBuckets();
  for (let i = 0; i < LATENCY_BUCKETS; i++) {
    const d = (current[i] ?? 0) - (previous[i] ?? 0);
    if (d < 0) return { delta: [...current].concat(emptyBuckets()).slice(0, LATENCY_BUCKETS), reset: true };
    delta[i] = d;
  }
  return { delta, reset: false };
}

export const bucketTotal = (b: ReadonlyArray<number>): number => b.reduce((s, n) => s + n, 0);

/**
 * The q-quantile (0 < q <= 1) of a bucketed distribution in microseconds,
 * interpolated linearly inside the bucket that crosses the rank (as
 * Prometheus's histogram_quantile does). Null when the histogram is empty.
 */
export function quantileUs(buckets: ReadonlyArray<number>, q: number): number | null {
  const total = bucketTotal(buckets);
  if (total <= 0) return null;
  const rank = q * total;
  let cumulative = 0;
  for (let i = 0; i < LATENCY_BUCKETS; i++) {
    const n = buckets[i] ?? 0;
    if (n > 0 && cumulative + n >= rank) {
      const lower = i === 0 ? 0 : bucketUpperUs(i - 1);
      const upper = bucketUpperUs(i);
      return lower + ((upper - lower) * (rank - cumulative)) / n;
    }
    cumulative += n;
  }
  return bucketUpperUs(LATENCY_BUCKETS - 1);
}

export interface LatencyPercentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  p999: number | null;
}

export function percentiles(buckets: ReadonlyArray<number>): LatencyPercentiles {
  return { p50: quantileUs(buckets, 0.5), p95: quantileUs(buckets, 0.95), p99: quantileUs(buckets, 0.99), p999: quantileUs(buckets, 0.999) };
}

/**
 * Parses the reply of `LATENCY HISTOGRAM` (RESP2 as ioredis returns it:
 * [name, [ 'calls', n, 'histogram_usec', [bound, cum, bound, cum …] ], …])
 * into per-command per-bucket counts and call totals.
 */
export function parseLatencyHistogramReply(reply: unknown): Map<string, { calls: number; buckets: BucketCounts }> {
  const out = new Map<string, { calls: number; buckets: BucketCounts }>();
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const name = String(reply[i]).toLowerCase();
    const body = reply[i + 1];
    if (!Array.isArray(body)) continue;
    let calls = 0;
    let pairs: [number, number][] = [];
    for (let j = 0; j + 1 < body.length; j += 2) {
      const key = String(body[j]);
      if (key === 'calls') calls = Number(body[j + 1]);
      else if (key === 'histogram_usec' && Array.isArray(body[j + 1])) {
        const flat = body[j + 1] as unknown[];
        pairs = [];
        for (let k = 0; k + 1 < flat.length; k += 2) pairs.push([Number(flat[k]), Number(flat[k + 1])]);
      }
    }
    out.set(name, { calls, buckets: bucketsFromCumulative(pairs) });
  }
  return out;
}
