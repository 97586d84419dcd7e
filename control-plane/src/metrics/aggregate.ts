/**
 * How instance values combine into shard and cluster series (pure code).
 *
 * - ops: reads + writes. A replica's writes are the primary's writes applied
 *   again from the replication stream, so shard and cluster series count
 *   writes on primaries only (an instance series shows what it executed).
 * - latency percentiles and replication lag: the worst member (percentiles
 *   cannot be added; the exact merged distribution is in Prometheus's
 *   histogram and the 1-minute rollups of each instance).
 * - everything else: the sum.
 */
import type { ClusterMetric, NodeMetric } from '@strata/api';
import { F, PRIMARY_SLOT, NODE_FIELDS, type InstanceField } from './fields';

export interface MemberValues {
  /** INSTANCE_FIELDS values, then the primary flag (PRIMARY_SLOT); NaN where missing. */
  values: ArrayLike<number>;
}

const MAX_METRICS: ReadonlySet<ClusterMetric> = new Set(['latency_p50', 'latency_p95', 'latency_p99', 'latency_p999', 'repl_lag']);

/** One instance's value of a metric; null when it has none. */
export function instanceMetric(metric: ClusterMetric, v: ArrayLike<number>): number | null {
  const x = metric === 'ops' ? (v[F.ops_read] ?? NaN) + (v[F.ops_write] ?? NaN) : (v[F[metric as InstanceField]] ?? NaN);
  return Number.isFinite(x) ? x : null;
}

/** A group's (shard's or cluster's) value of a metric from its members' values; null when no member has one. */
export function groupMetric(metric: ClusterMetric, members: ReadonlyArray<ArrayLike<number>>): number | null {
  let out: number | null = null;
  for (const v of members) {
    let x: number;
    if (metric === 'ops' || metric === 'ops_write') {
      const reads = metric === 'ops' ? (v[F.ops_read] ?? NaN) : 0;
      const primary = v[PRIMARY_SLOT] === 1;
      const writes = primary ? (v[F.ops_write] ?? NaN) : 0;
      x = reads + writes;
      if (!Number.isFinite(v[F.ops_read] ?? NaN)) x = NaN;
    } else {
      x = v[F[metric as InstanceField]] ?? NaN;
    }
    if (!Number.isFinite(x)) continue;
    out = out === null ? x : MAX_METRICS.has(metric) ? Math.max(out, x) : out + x;
  }
  return out;
}

const N = Object.fromEntries(NODE_FIELDS.map((f, i) => [f, i])) as Record<(typeof NODE_FIELDS)[number], number>;

export function nodeMetric(metric: NodeMetric, v: ArrayLike<number>): number | null {
  const g = (k: keyof typeof N) => v[N[k]] ?? NaN;
  const x = metric === 'memory_used' ? g('memory_total') - g('memory_available')
    : metric === 'disk_used' ? g('disk_total') - g('disk_free')
      : g(metric);
  return Number.isFinite(x) ? x : null;
}
