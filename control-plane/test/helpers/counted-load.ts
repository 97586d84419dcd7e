import type { Cluster } from 'ioredis';

export interface LoadResult {
  startedMs: number;
  endedMs: number;
  reads: number;
  writes: number;
  errors: number;
  /** Client-side latency of every call, µs, sorted. */
  latenciesUs: Float64Array;
  /** Successful calls completed in each wall-clock second (unix seconds). */
  perSecond: Map<number, number>;
}

/**
 * A client doing a counted number of reads and writes: `workers` loops, each
 * alternating GET/SET by `writeShare`, for `durationMs`. Every call is
 * counted and timed so tests can compare the server's figures with these.
 */
export async function countedLoad(client: Cluster, o: { durationMs: number; workers: number; writeShare: number; keys?: number }): Promise<LoadResult> {
  const keys = o.keys ?? 1000;
  const lat: number[] = [];
  let reads = 0, writes = 0, errors = 0, seq = 0;
  const perSecond = new Map<number, number>();
  const startedMs = Date.now();
  const until = startedMs + o.durationMs;
  await Promise.all(Array.from({ length: o.workers }, async (_, w) => {
    while (Date.now() < until) {
      const n = seq++;
      const key = `load:${(n * 7919 + w) % keys}`;
      const write = (n % 100) < o.writeShare * 100;
      const t0 = process.hrtime.bigint();
      try {
        if (write) await client.set(key, 'x'.repeat(32));
        else await client.get(key);
        lat.push(Number(process.hrtime.bigint() - t0) / 1000);
        const sec = Math.floor(Date.now() / 1000);
        perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
        if (write) writes++;
        else reads++;
      } catch {
        errors++;
      }
    }
  }));
  return { startedMs, endedMs: Date.now(), reads, writes, errors, latenciesUs: Float64Array.from(lat).sort(), perSecond };
}

export const quantile = (sorted: Float64Array, q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
