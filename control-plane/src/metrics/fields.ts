/**
 * The per-second values Strata keeps for each instance and node, in column
 * order (hot window slots, PostgreSQL columns and rollups all use it).
 */
import type { HostMetricSample, InstanceMetricSample } from '@strata/api';
import { percentiles } from '@strata/engine/metrics';

export const INSTANCE_FIELDS = [
  'ops_read', 'ops_write', 'ops_other',
  'latency_p50', 'latency_p95', 'latency_p99', 'latency_p999',
  'clients', 'memory_used', 'memory_max', 'keys',
  'evictions', 'expirations', 'hits', 'misses', 'repl_lag', 'net_in', 'net_out', 'cpu',
] as const;
export type InstanceField = (typeof INSTANCE_FIELDS)[number];
export const F = Object.fromEntries(INSTANCE_FIELDS.map((f, i) => [f, i])) as Record<InstanceField, number>;
/** Extra slot in the hot window: 1 when the instance was a primary in that second. */
export const PRIMARY_SLOT = INSTANCE_FIELDS.length;
export const INSTANCE_SLOT_WIDTH = INSTANCE_FIELDS.length + 1;

export const NODE_FIELDS = ['cpu', 'memory_total', 'memory_available', 'disk_total', 'disk_free'] as const;
export type NodeField = (typeof NODE_FIELDS)[number];

/** Fields that are rates (counts per second) rather than gauges or latencies. */
export const RATE_FIELDS: ReadonlySet<InstanceField> = new Set(['ops_read', 'ops_write', 'ops_other', 'evictions', 'expirations', 'hits', 'misses', 'net_in', 'net_out', 'cpu']);

/** One sample's values in INSTANCE_FIELDS order (rates per second, latency µs). repl_lag stays NaN: the primary reports it. */
export function instanceValues(s: InstanceMetricSample): number[] {
  const per = (n: number) => (n * 1000) / s.intervalMs;
  const p = percentiles(s.latency);
  const v = new Array<number>(INSTANCE_FIELDS.length).fill(Number.NaN);
  v[F.ops_read] = per(s.reads);
  v[F.ops_write] = per(s.writes);
  v[F.ops_other] = per(s.others);
  v[F.latency_p50] = p.p50 ?? Number.NaN;
  v[F.latency_p95] = p.p95 ?? Number.NaN;
  v[F.latency_p99] = p.p99 ?? Number.NaN;
  v[F.latency_p999] = p.p999 ?? Number.NaN;
  v[F.clients] = s.clients;
  v[F.memory_used] = s.usedMemory;
  v[F.memory_max] = s.maxMemory;
  v[F.keys] = s.keys;
  v[F.evictions] = per(s.evicted);
  v[F.expirations] = per(s.expired);
  v[F.hits] = per(s.hits);
  v[F.misses] = per(s.misses);
  v[F.net_in] = per(s.netIn);
  v[F.net_out] = per(s.netOut);
  v[F.cpu] = (s.cpuSeconds * 1000) / s.intervalMs;
  return v;
}

export function nodeValues(h: HostMetricSample): number[] {
  return [h.cpu, h.memoryTotal, h.memoryAvailable, h.diskTotal, h.diskFree];
}
