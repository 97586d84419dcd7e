/** The heat view's arithmetic: each shard's share of the cluster's ops and memory, and how uneven they are (max over mean). */
import type { HeatShard } from '@strata/api';

export interface ShardLoad {
  shard: number;
  ops: number | null;
  memoryUsed: number | null;
  memoryMax: number | null;
  keys: number | null;
  latencyP99: number | null;
}

export function heatOf(shards: readonly ShardLoad[]): { shards: HeatShard[]; skew: { ops: number | null; memory: number | null } } {
  const total = (xs: (number | null)[]) => { const known = xs.filter((x): x is number => x !== null); return known.length ? known.reduce((a, b) => a + b, 0) : null; };
  const opsTotal = total(shards.map((s) => s.ops));
  const memTotal = total(shards.map((s) => s.memoryUsed));
  const share = (x: number | null, t: number | null) => (x === null || !t ? null : x / t);
  const skew = (xs: (number | null)[]) => {
    const known = xs.filter((x): x is number => x !== null);
    if (known.length < 1) return null;
    const mean = known.reduce((a, b) => a + b, 0) / known.length;
    return mean > 0 ? Math.max(...known) / mean : null;
  };
  return {
    shards: shards.map((s) => ({
      shard: s.shard, opsPerSec: s.ops, memoryUsedBytes: s.memoryUsed, memoryMaxBytes: s.memoryMax, keys: s.keys,
      latencyP99Micros: s.latencyP99, opsShare: share(s.ops, opsTotal), memoryShare: share(s.memoryUsed, memTotal),
    })),
    skew: { ops: skew(shards.map((s) => s.ops)), memory: skew(shards.map((s) => s.memoryUsed)) },
  };
}
