/**
 * Cumulative per-instance and per-node state for the Prometheus exposition:
 * counters are kept by adding each sample's deltas, so an engine restart is
 * already absorbed (the series never goes down while the control plane runs),
 * and the latency histogram is the running sum of the bucket deltas.
 */
import type { HostMetricSample, InstanceMetricSample } from '@strata/api';
import { addBuckets, emptyBuckets, type BucketCounts } from '@strata/engine/metrics';

export interface InstanceTotals {
  reads: number;
  writes: number;
  others: number;
  buckets: BucketCounts;
  latencySumUs: number;
  evicted: number;
  expired: number;
  hits: number;
  misses: number;
  netIn: number;
  netOut: number;
  cpuSeconds: number;
  restarts: number;
  clients: number;
  usedMemory: number;
  maxMemory: number;
  keys: number;
  replLag: number;
  isPrimary: boolean;
  lastSeenMs: number;
}

export interface NodeLatest extends HostMetricSample {
  lastSeenMs: number;
}

export class PromCounters {
  readonly instances = new Map<string, InstanceTotals>();
  readonly nodes = new Map<string, NodeLatest>();

  addInstance(s: InstanceMetricSample, nowMs: number): void {
    let t = this.instances.get(s.instanceId);
    if (!t) {
      t = {
        reads: 0, writes: 0, others: 0, buckets: emptyBuckets(), latencySumUs: 0, evicted: 0, expired: 0, hits: 0, misses: 0,
        netIn: 0, netOut: 0, cpuSeconds: 0, restarts: 0, clients: 0, usedMemory: 0, maxMemory: 0, keys: 0, replLag: Number.NaN, isPrimary: true, lastSeenMs: 0,
      };
      this.instances.set(s.instanceId, t);
    }
    t.reads += s.reads;
    t.writes += s.writes;
    t.others += s.others;
    addBuckets(t.buckets, s.latency);
    t.latencySumUs += s.latencySumUs;
    t.evicted += s.evicted;
    t.expired += s.expired;
    t.hits += s.hits;
    t.misses += s.misses;
    t.netIn += s.netIn;
    t.netOut += s.netOut;
    t.cpuSeconds += s.cpuSeconds;
    if (s.restarted) t.restarts++;
    t.clients = s.clients;
    t.usedMemory = s.usedMemory;
    t.maxMemory = s.maxMemory;
    t.keys = s.keys;
    t.isPrimary = s.role === 'primary';
    if (t.isPrimary) t.replLag = Number.NaN;
    t.lastSeenMs = Math.max(t.lastSeenMs, nowMs);
  }

  setLag(instanceId: string, lagBytes: number): void {
    const t = this.instances.get(instanceId);
    if (t && !t.isPrimary) t.replLag = lagBytes;
  }

  addNode(nodeId: string, h: HostMetricSample, nowMs: number): void {
    this.nodes.set(nodeId, { ...h, lastSeenMs: nowMs });
  }

  forget(olderThanMs: number): void {
    for (const m of [this.instances, this.nodes] as Map<string, { lastSeenMs: number }>[]) {
      for (const [id, v] of m) if (v.lastSeenMs < olderThanMs) m.delete(id);
    }
  }
}
