/**
 * The gauge values alert rules compare with their thresholds, from one second
 * of a cluster's instance rows (hot window; pure code).
 */
import type { AlertMetric } from '@strata/api';
import { F } from '../metrics/fields';
import { groupMetric } from '../metrics/aggregate';

export type GaugeMetric = 'memory_used_percent' | 'ops_per_sec' | 'latency_p99_ms' | 'replication_lag_bytes' | 'connected_clients' | 'evictions';
export type GaugeValues = Record<GaugeMetric, number | null>;

export const isGauge = (m: AlertMetric): m is GaugeMetric =>
  m === 'memory_used_percent' || m === 'ops_per_sec' || m === 'latency_p99_ms' || m === 'replication_lag_bytes' || m === 'connected_clients' || m === 'evictions';

/** Each gauge's value over the members' rows of one second; null where no member has one. */
export function gaugeValues(rows: ReadonlyArray<ArrayLike<number>>): GaugeValues {
  // The fullest instance: a cluster is as full as its fullest shard (maxmemory 0 = unlimited, skipped).
  let memory: number | null = null;
  for (const v of rows) {
    const used = v[F.memory_used] ?? NaN;
    const max = v[F.memory_max] ?? NaN;
    if (!Number.isFinite(used) || !Number.isFinite(max) || max <= 0) continue;
    memory = Math.max(memory ?? 0, (100 * used) / max);
  }
  const p99 = groupMetric('latency_p99', rows);
  return {
    memory_used_percent: memory,
    ops_per_sec: groupMetric('ops', rows),
    latency_p99_ms: p99 === null ? null : p99 / 1000,
    replication_lag_bytes: groupMetric('repl_lag', rows),
    connected_clients: groupMetric('clients', rows),
    evictions: groupMetric('evictions', rows),
  };
}
