/**
 * Answers history queries, the live stream's points and the "current value"
 * lists, from the hot window or PostgreSQL, grouped by cluster, shard or
 * instance with the rules in aggregate.ts.
 */
import type {
  ClusterMetric, ClusterCurrentMetrics, MetricSeries, MetricsGrouping, MetricsResult, MetricsStreamEvent, NodeCurrentMetrics, NodeMetric,
} from '@strata/api';
import { F, INSTANCE_SLOT_WIDTH, PRIMARY_SLOT } from './fields';
import { groupMetric, instanceMetric, nodeMetric } from './aggregate';
import type { HotWindow, SecondRing } from './hot-window';
import type { InstanceDirectory } from './instance-directory';
import type { MetricsStore } from './metrics.store';
import { planRange, type RangePlan } from './time-range';

const MAX_OF = new Set<number>([F.latency_p50, F.latency_p95, F.latency_p99, F.latency_p999, F.repl_lag]);

interface Member {
  id: string;
  shard: number;
  /** Values per step bucket (INSTANCE_FIELDS + primary flag). */
  buckets: Map<number, ArrayLike<number>>;
  isPrimary: boolean;
}

/** Averages (maxima for latency and lag) of a ring's seconds in each step bucket. */
export function bucketRing(ring: SecondRing, from: number, to: number, step: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let b = Math.floor(from / step) * step; b < to; b += step) {
    const sums = new Array<number>(INSTANCE_SLOT_WIDTH).fill(0);
    const counts = new Array<number>(INSTANCE_SLOT_WIDTH).fill(0);
    for (let s = Math.max(b, from); s < Math.min(b + step, to); s++) {
      const row = ring.get(s);
      if (!row) continue;
      for (let i = 0; i < INSTANCE_SLOT_WIDTH; i++) {
        const x = row[i]!;
        if (!Number.isFinite(x)) continue;
        sums[i] = MAX_OF.has(i) ? (counts[i] ? Math.max(sums[i]!, x) : x) : sums[i]! + x;
        counts[i]!++;
      }
    }
    if (!counts.some((c) => c > 0)) continue;
    const v = sums.map((x, i) => (counts[i] ? (MAX_OF.has(i) ? x : x / counts[i]!) : Number.NaN));
    v[PRIMARY_SLOT] = counts[PRIMARY_SLOT] && sums[PRIMARY_SLOT]! > 0 ? 1 : 0;
    out.set(b, v);
  }
  return out;
}

export class MetricsQuery {
  constructor(
    private readonly d: {
      hot: HotWindow; directory: InstanceDirectory; store: MetricsStore; hotSeconds: number; rawRetentionSec: number; now?: () => number;
    },
  ) {}

  private nowSec(): number {
    return Math.floor((this.d.now?.() ?? Date.now()) / 1000);
  }

  plan(q: { from?: number; to?: number; step?: number }): RangePlan {
    return planRange(q, this.nowSec(), this.d.hotSeconds, this.d.rawRetentionSec);
  }

  async cluster(clusterId: string, metrics: ClusterMetric[], by: MetricsGrouping, plan: RangePlan): Promise<MetricsResult> {
    const members = await this.members(clusterId, plan);
    const timestamps: number[] = [];
    for (let b = Math.floor(plan.from / plan.step) * plan.step; b < plan.to; b += plan.step) timestamps.push(b);
    const series: MetricSeries[] = [];
    for (const metric of metrics) {
      if (by === 'instance') {
        for (const m of members) {
          series.push({
            metric, scope: 'instance', shard: m.shard, instanceId: m.id, role: m.isPrimary ? 'primary' : 'replica',
            values: timestamps.map((t) => { const v = m.buckets.get(t); return v ? instanceMetric(metric, v) : null; }),
          });
        }
      } else {
        const groups = by === 'cluster' ? [[null, members] as const] : [...groupBy(members, (m) => m.shard)].sort((a, b) => a[0] - b[0]);
        for (const [shard, list] of groups) {
          series.push({
            metric, scope: by, shard, instanceId: null, role: null,
            values: timestamps.map((t) => groupMetric(metric, list.map((m) => m.buckets.get(t)).filter((v): v is ArrayLike<number> => !!v))),
          });
        }
      }
    }
    return { from: plan.from, to: plan.to, step: plan.step, source: plan.source, timestamps, series };
  }

  private async members(clusterId: string, plan: RangePlan): Promise<Member[]> {
    if (plan.source === 'memory') {
      return this.d.directory.ofCluster(clusterId).map((info) => {
        const ring = this.d.hot.instances.get(info.id);
        const buckets = ring ? bucketRing(ring, plan.from, plan.to, plan.step) : new Map();
        const last = [...buckets.values()].at(-1);
        return { id: info.id, shard: info.shard, buckets, isPrimary: last ? last[PRIMARY_SLOT] === 1 : true };
      });
    }
    const rows = await this.d.store.queryCluster(plan.source === 'raw' ? '1s' : '1m', clusterId, plan.from, plan.to, plan.step);
    const out: Member[] = [];
    for (const [id, { shard, buckets }] of rows) {
      const last = [...buckets.values()].at(-1);
      out.push({ id, shard, buckets, isPrimary: last ? last[PRIMARY_SLOT] === 1 : true });
    }
    return out.sort((a, b) => a.shard - b.shard || a.id.localeCompare(b.id));
  }

  /** The stream's point for second `sec`: one value per series. */
  streamPoint(clusterId: string, metrics: ClusterMetric[], by: MetricsGrouping, sec: number): MetricsStreamEvent {
    const members = this.d.directory.ofCluster(clusterId).map((info) => ({ info, row: this.d.hot.instances.get(info.id)?.get(sec) ?? null }));
    const series: MetricsStreamEvent['series'] = [];
    for (const metric of metrics) {
      if (by === 'instance') {
        for (const { info, row } of members) {
          series.push({ metric, scope: 'instance', shard: info.shard, instanceId: info.id, role: row ? (row[PRIMARY_SLOT] === 1 ? 'primary' : 'replica') : null, value: row ? instanceMetric(metric, row) : null });
        }
      } else {
        const groups = by === 'cluster' ? [[null, members] as const] : [...groupBy(members, (m) => m.info.shard)].sort((a, b) => a[0] - b[0]);
        for (const [shard, list] of groups) {
          const rows = list.map((m) => m.row).filter((r): r is Float32Array => !!r);
          series.push({ metric, scope: by, shard, instanceId: null, role: null, value: groupMetric(metric, rows) });
        }
      }
    }
    return { ts: sec, series };
  }

  /** Latest second (now-1, else now-2) of each of these clusters. */
  currentClusters(clusterIds: string[]): ClusterCurrentMetrics[] {
    const nowSec = this.nowSec();
    return clusterIds.map((clusterId) => {
      const rings = this.d.directory.ofCluster(clusterId).map((i) => this.d.hot.instances.get(i.id)).filter((r): r is SecondRing => !!r);
      for (const sec of [nowSec - 1, nowSec - 2, nowSec - 3]) {
        const rows = rings.map((r) => r.get(sec)).filter((r): r is Float32Array => !!r);
        if (!rows.length) continue;
        return {
          clusterId, ts: sec, ops: groupMetric('ops', rows), opsRead: groupMetric('ops_read', rows), opsWrite: groupMetric('ops_write', rows),
          latencyP99: groupMetric('latency_p99', rows), memoryUsed: groupMetric('memory_used', rows),
        };
      }
      return { clusterId, ts: null, ops: null, opsRead: null, opsWrite: null, latencyP99: null, memoryUsed: null };
    });
  }

  /**
   * Per shard, averaged over the last `windowSec` full seconds (hot window):
   * ops of the shard (reads everywhere, writes on the primary), and its
   * primary's used and maximum memory and keys. `at`: the newest second seen.
   */
  shardLoad(clusterId: string, windowSec: number): { at: number | null; shards: { shard: number; ops: number | null; memoryUsed: number | null; memoryMax: number | null; keys: number | null; latencyP99: number | null }[] } {
    // Whole seconds every agent has pushed by now (a push lands up to ~0.7 s after its second).
    const to = this.nowSec() - 1;
    const from = to - windowSec;
    let at: number | null = null;
    const byShard = new Map<number, ArrayLike<number>[]>();
    for (const info of this.d.directory.ofCluster(clusterId)) {
      const ring = this.d.hot.instances.get(info.id);
      const list = byShard.get(info.shard) ?? [];
      byShard.set(info.shard, list);
      if (!ring) continue;
      // A step of `to` seconds makes one bucket (keyed 0) holding exactly [from, to).
      const row = bucketRing(ring, from, to, to).get(0);
      if (row) list.push(row);
      if (ring.latest >= 0) at = Math.max(at ?? 0, Math.min(ring.latest, to));
    }
    const shards = [...byShard].sort((a, b) => a[0] - b[0]).map(([shard, rows]) => {
      const primary = rows.find((r) => r[PRIMARY_SLOT] === 1) ?? rows[0];
      const pick = (metric: 'memory_used' | 'memory_max' | 'keys') => (primary ? groupMetric(metric, [primary]) : null);
      return { shard, ops: groupMetric('ops', rows), memoryUsed: pick('memory_used'), memoryMax: pick('memory_max'), keys: pick('keys'), latencyP99: groupMetric('latency_p99', rows) };
    });
    return { at, shards };
  }

  currentNodes(nodeIds: string[]): NodeCurrentMetrics[] {
    const nowSec = this.nowSec();
    return nodeIds.map((nodeId) => {
      const ring = this.d.hot.nodes.get(nodeId);
      for (const sec of [nowSec - 1, nowSec - 2, nowSec - 3]) {
        const row = ring?.get(sec);
        if (!row) continue;
        return {
          nodeId, ts: sec, cpu: nodeMetric('cpu', row), memoryTotal: nodeMetric('memory_total', row), memoryUsed: nodeMetric('memory_used', row),
          diskTotal: nodeMetric('disk_total', row), diskUsed: nodeMetric('disk_used', row),
        };
      }
      return { nodeId, ts: null, cpu: null, memoryTotal: null, memoryUsed: null, diskTotal: null, diskUsed: null };
    });
  }

  async node(nodeId: string, metrics: NodeMetric[], plan: RangePlan): Promise<MetricsResult> {
    let buckets: Map<number, ArrayLike<number>>;
    if (plan.source === 'memory') {
      const ring = this.d.hot.nodes.get(nodeId);
      buckets = new Map();
      for (let b = Math.floor(plan.from / plan.step) * plan.step; ring && b < plan.to; b += plan.step) {
        const rows: Float32Array[] = [];
        for (let s = Math.max(b, plan.from); s < Math.min(b + plan.step, plan.to); s++) {
          const r = ring.get(s);
          if (r) rows.push(r);
        }
        if (rows.length) buckets.set(b, Array.from(rows[0]!, (_, i) => rows.reduce((sum, r) => sum + r[i]!, 0) / rows.length));
      }
    } else {
      buckets = await this.d.store.queryNode(plan.source === 'raw' ? '1s' : '1m', nodeId, plan.from, plan.to, plan.step);
    }
    const timestamps: number[] = [];
    for (let b = Math.floor(plan.from / plan.step) * plan.step; b < plan.to; b += plan.step) timestamps.push(b);
    return {
      from: plan.from, to: plan.to, step: plan.step, source: plan.source, timestamps,
      series: metrics.map((metric) => ({
        metric, scope: 'node' as const, shard: null, instanceId: null, role: null,
        values: timestamps.map((t) => { const v = buckets.get(t); return v ? nodeMetric(metric, v) : null; }),
      })),
    };
  }
}

function groupBy<T>(items: readonly T[], key: (t: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k) ?? [];
    list.push(it);
    out.set(k, list);
  }
  return out;
}
