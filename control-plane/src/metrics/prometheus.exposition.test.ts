import { describe, expect, it } from 'vitest';
import type { InstanceMetricSample } from '@strata/api';
import { PromCounters } from './prom-counters';
import { renderStrataExposition } from './prometheus.exposition';
import type { InstanceDirectory } from './instance-directory';

const sample = (over: Partial<InstanceMetricSample>): InstanceMetricSample => ({
  instanceId: 'i-1', clusterId: 'c-1', ts: 0, intervalMs: 1000, role: 'primary', restarted: false, reads: 10, writes: 5, others: 1,
  latency: Object.assign(new Array<number>(27).fill(0), { 2: 10, 5: 5 }), latencySumUs: 100, clients: 3, usedMemory: 1000, maxMemory: 0, keys: 7,
  evicted: 0, expired: 1, hits: 4, misses: 1, netIn: 10, netOut: 20, cpuSeconds: 0.01, replicas: [], ...over,
});

const dir = {
  get: (id: string) => (id === 'i-1' ? { id, clusterId: 'c-1', clusterName: 'orders "eu"', organizationId: 'o', shard: 0, nodeId: 'n', nodeName: 'node-1', address: 'a', port: 1 } : undefined),
  nodeName: () => 'node-1',
} as unknown as InstanceDirectory;

describe('Prometheus exposition', () => {
  it('keeps counters growing across an engine restart and renders a cumulative histogram', async () => {
    const c = new PromCounters();
    c.addInstance(sample({}), 1000);
    c.addInstance(sample({ restarted: true, reads: 3 }), 2000);
    const text = await renderStrataExposition(c, dir, 2000);
    expect(text).toContain('strata_redis_commands_total{cluster="orders \\"eu\\"",cluster_id="c-1",shard="0",instance="i-1",node="node-1",role="primary",class="read"} 13');
    expect(text).toContain('strata_redis_restarts_total{');
    const buckets = [...text.matchAll(/strata_redis_command_latency_seconds_bucket\{[^}]*le="([^"]+)"\} (\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
    const counts = buckets.map(([, n]) => n);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(buckets.at(-1)).toEqual(['+Inf', 30]);
    expect(text).toMatch(/strata_redis_command_latency_seconds_count\{[^}]*\} 30\n/);
    // Each family is declared once, before its samples.
    for (const m of text.matchAll(/^# TYPE (\S+) /gm)) expect(text.split(`# TYPE ${m[1]} `).length).toBe(2);
  });

  it('marks an instance that stopped sending as down and leaves unknown instances out', async () => {
    const c = new PromCounters();
    c.addInstance(sample({}), 1000);
    c.addInstance(sample({ instanceId: 'gone' }), 1000);
    const text = await renderStrataExposition(c, dir, 60_000);
    expect(text).toMatch(/strata_redis_up\{[^}]*instance="i-1"[^}]*\} 0/);
    expect(text).not.toContain('instance="gone"');
  });
});
