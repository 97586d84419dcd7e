import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsResult, MetricsStreamEvent, NodeCurrentMetricsList, ClusterCurrentMetricsList, Problem } from '@strata/api';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { clusterFromUri } from './helpers/redis-client';
import { countedLoad, quantile, type LoadResult } from './helpers/counted-load';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let clusterId: string;
let load: LoadResult;
const streamEvents: MetricsStreamEvent[] = [];

const sum = (xs: (number | null)[]) => xs.reduce<number>((s, x) => s + (x ?? 0), 0);

/** This host's busy and total CPU jiffies (/proc/stat, the file the agents sample: they run on this host). */
function hostJiffies(): { busy: number; total: number } {
  const v = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu '))!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, n) => a + n, 0);
  return { busy: total - v[3]! - v[4]!, total };
}
/** Busy share of all CPUs during the load, as the test measured it. */
let hostBusyDuringLoad: number;
const metrics = (q: string) => api.call<MetricsResult & Problem>('GET', `/v1/clusters/${clusterId}/metrics?${q}`);

/** Reads SSE `sample` events from the stream until `count` arrived. */
async function readStream(url: string, token: string, count: number, into: MetricsStreamEvent[]): Promise<{ contentType: string | null }> {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  while (into.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let i;
    // One chunk can carry several events (a late tick sends the seconds it owes at once): take `count`.
    while (into.length < count && (i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (block.includes('event: sample') && data) into.push(JSON.parse(data.slice(6)) as MetricsStreamEvent);
    }
  }
  ctrl.abort();
  return { contentType: res.headers.get('content-type') };
}

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.30'));
  const created = await api.createCluster({ name: 'metered', shards: 3, replicasPerShard: 1 });
  clusterId = created.body.cluster.id;
  await api.waitForPhase(clusterId, 'ready');
  const conn = (await api.connection(clusterId)).body;
  const client = clusterFromUri(conn.uri);
  try {
    await client.set('warm', '1');
    // Let a couple of samples establish the counters' baseline.
    await new Promise((r) => setTimeout(r, 2500));
    const stream = readStream(`${stack.url}/v1/clusters/${clusterId}/metrics/stream?metric=ops,ops_read,ops_write&by=shard`, stack.adminToken, 4, streamEvents);
    const cpu0 = hostJiffies();
    load = await countedLoad(client, { durationMs: 6000, workers: 16, writeShare: 0.3 });
    const cpu1 = hostJiffies();
    hostBusyDuringLoad = (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total);
    await stream;
  } finally {
    client.disconnect();
  }
  // Samples of the last second arrive ~1 s after it ends.
  await new Promise((r) => setTimeout(r, 2500));
}, 180_000);
afterAll(async () => cleanup?.());

describe('live metrics of a real 3 x 1 cluster under a counted load', () => {
  it('the load ran without errors', () => {
    expect(load.errors).toBe(0);
    expect(load.reads + load.writes).toBeGreaterThan(3000);
  });

  it("reports ops/s for the window within 10% of the client's own count, reads and writes apart", async () => {
    const from = Math.floor(load.startedMs / 1000) - 2;
    const to = Math.ceil(load.endedMs / 1000) + 3;
    const r = await metrics(`metric=ops,ops_read,ops_write&from=${from}&to=${to}&step=1&by=cluster`);
    expect(r.status).toBe(200);
    expect(r.body.source).toBe('memory');
    const [ops, reads, writes] = ['ops', 'ops_read', 'ops_write'].map((m) => sum(r.body.series.find((s) => s.metric === m)!.values));
    const client = load.reads + load.writes;
    console.log(`client: ${client} ops (${load.reads} reads, ${load.writes} writes) in ${load.endedMs - load.startedMs} ms; API: ${ops!.toFixed(0)} ops (${reads!.toFixed(0)} reads, ${writes!.toFixed(0)} writes)`);
    expect(Math.abs(ops! - client) / client).toBeLessThan(0.1);
    expect(Math.abs(reads! - load.reads) / load.reads).toBeLessThan(0.1);
    expect(Math.abs(writes! - load.writes) / load.writes).toBeLessThan(0.1);
    // Second by second over the steady seconds: the point stamped t counts what the server did in the
    // second before it (agents sample just after each whole second), so it is compared with what the
    // client completed in second t-1. Compared as a sum over those seconds (boundaries differ by a few ms).
    const series = r.body.series.find((s) => s.metric === 'ops')!;
    const inner = r.body.timestamps.map((t, i) => [t, series.values[i] ?? 0] as const).filter(([t]) => t * 1000 >= load.startedMs + 2000 && t * 1000 <= load.endedMs);
    expect(inner.length).toBeGreaterThanOrEqual(3);
    const apiSteady = sum(inner.map(([, v]) => v));
    const clientSteady = sum(inner.map(([t]) => load.perSecond.get(t - 1) ?? 0));
    console.log(`steady seconds ${inner.map(([t, v]) => `${t % 100}: API ${v.toFixed(0)} client ${load.perSecond.get(t - 1) ?? 0}`).join(', ')}`);
    expect(Math.abs(apiSteady - clientSteady) / clientSteady).toBeLessThan(0.1);
  });

  it('per-shard series sum to the cluster series at every second, and every shard carried load', async () => {
    const from = Math.floor(load.startedMs / 1000) - 1;
    const to = Math.ceil(load.endedMs / 1000) + 2;
    const [byCluster, byShard] = await Promise.all([
      metrics(`metric=ops&from=${from}&to=${to}&step=1&by=cluster`), metrics(`metric=ops&from=${from}&to=${to}&step=1&by=shard`),
    ]);
    expect(byShard.body.series.map((s) => s.shard)).toEqual([0, 1, 2]);
    byCluster.body.timestamps.forEach((_, i) => {
      const total = byCluster.body.series[0]!.values[i] ?? 0;
      const shards = sum(byShard.body.series.map((s) => s.values[i] ?? null));
      expect(Math.abs(shards - total)).toBeLessThan(1e-6 * Math.max(1, total));
    });
    for (const s of byShard.body.series) expect(sum(s.values)).toBeGreaterThan(0);
  });

  it("server-side p99 is plausible against the client's own p99", async () => {
    const from = Math.floor(load.startedMs / 1000) + 1;
    const to = Math.ceil(load.endedMs / 1000);
    const r = await metrics(`metric=latency_p50,latency_p99&from=${from}&to=${to}&step=1`);
    const p99s = r.body.series.find((s) => s.metric === 'latency_p99')!.values.filter((v): v is number => v !== null);
    const p50s = r.body.series.find((s) => s.metric === 'latency_p50')!.values.filter((v): v is number => v !== null);
    const clientP99 = quantile(load.latenciesUs, 0.99);
    console.log(`server p50 ${Math.max(...p50s).toFixed(1)} µs, p99 ${Math.max(...p99s).toFixed(1)} µs (worst instance, worst second); client p99 ${clientP99.toFixed(0)} µs`);
    expect(p99s.length).toBeGreaterThan(2);
    // Execution inside Redis takes more than nothing and less than the whole round trip the client saw.
    for (const p of p99s) {
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThan(clientP99);
    }
    expect(Math.min(...p50s)).toBeLessThanOrEqual(Math.max(...p99s));
  });

  it('streamed one sample event per second with a point for each shard', () => {
    expect(streamEvents.length).toBe(4);
    const ts = streamEvents.map((e) => e.ts);
    ts.slice(1).forEach((t, i) => expect(t).toBe(ts[i]! + 1));
    for (const e of streamEvents) {
      expect(e.series.filter((s) => s.metric === 'ops').map((s) => s.shard)).toEqual([0, 1, 2]);
    }
    const busy = streamEvents.filter((e) => e.series.some((s) => s.metric === 'ops' && (s.value ?? 0) > 0));
    expect(busy.length).toBeGreaterThanOrEqual(2);
  });

  it('persists 1 s points to PostgreSQL: a query past the hot window reads them', async () => {
    // Wait for the writer's next flush (every second).
    await new Promise((r) => setTimeout(r, 1500));
    const r = await metrics('metric=ops&from=-20m&step=1');
    expect(r.body.source).toBe('raw');
    const total = sum(r.body.series[0]!.values);
    const client = load.reads + load.writes;
    expect(Math.abs(total - client) / client).toBeLessThan(0.1);
  });

  it('lists current ops/s per cluster and host CPU/memory per node', async () => {
    const clusters = await api.call<ClusterCurrentMetricsList>('GET', '/v1/metrics/clusters');
    expect(clusters.body.items.map((c) => c.clusterId)).toEqual([clusterId]);
    expect(clusters.body.items[0]!.ts).not.toBeNull();
    const nodes = await api.call<NodeCurrentMetricsList>('GET', '/v1/metrics/nodes');
    expect(nodes.body.items).toHaveLength(3);
    for (const n of nodes.body.items) {
      // A share of all CPUs, never 0 on a host running this stack (agents, PostgreSQL, 6 redis-servers).
      expect(n.cpu).toBeGreaterThan(0);
      expect(n.cpu).toBeLessThanOrEqual(1);
      expect(n.memoryUsed!).toBeGreaterThan(0);
      expect(n.memoryUsed!).toBeLessThan(n.memoryTotal!);
      expect(n.diskTotal!).toBeGreaterThan(0);
    }
    const nodeId = nodes.body.items[0]!.nodeId;
    const hist = await api.call<MetricsResult>('GET', `/v1/nodes/${nodeId}/metrics?metric=cpu,memory_used&from=-60s`);
    expect(hist.status).toBe(200);
    expect(hist.body.series.map((s) => s.metric)).toEqual(['cpu', 'memory_used']);
    expect(hist.body.series[1]!.values.filter((v) => v !== null).length).toBeGreaterThan(5);
  });

  it("reports each node's CPU during the load as the host's busy share, within 0.15 of the test's own /proc/stat reading", async () => {
    const from = Math.floor(load.startedMs / 1000) + 1;
    const to = Math.floor(load.endedMs / 1000);
    const nodes = await api.call<NodeCurrentMetricsList>('GET', '/v1/metrics/nodes');
    for (const { nodeId } of nodes.body.items) {
      const r = await api.call<MetricsResult>('GET', `/v1/nodes/${nodeId}/metrics?metric=cpu&from=${from}&to=${to}&step=1`);
      const points = r.body.series[0]!.values.filter((v): v is number => v !== null);
      expect(points.length).toBeGreaterThanOrEqual(to - from - 1);
      const mean = sum(points) / points.length;
      console.log(`node ${nodeId}: cpu ${mean.toFixed(3)} over ${points.length} s of load; /proc/stat ${hostBusyDuringLoad.toFixed(3)}`);
      expect(Math.abs(mean - hostBusyDuringLoad)).toBeLessThan(0.15);
    }
  });

  it('instance series carry each instance with its role; replicas report replication lag', async () => {
    const r = await metrics('metric=ops_write,repl_lag,memory_used,keys,clients&from=-30s&by=instance');
    const writes = r.body.series.filter((s) => s.metric === 'ops_write');
    expect(writes).toHaveLength(6);
    expect(writes.filter((s) => s.role === 'primary')).toHaveLength(3);
    const lag = r.body.series.filter((s) => s.metric === 'repl_lag' && s.role === 'replica');
    expect(lag).toHaveLength(3);
    for (const s of lag) expect(s.values.some((v) => v !== null && v >= 0)).toBe(true);
    const keys = r.body.series.filter((s) => s.metric === 'keys' && s.role === 'primary').map((s) => s.values.filter((v) => v !== null).at(-1) ?? 0);
    expect(sum(keys)).toBeGreaterThan(900);
  });

  it('serves Prometheus /metrics only with the scrape token', async () => {
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${stack.adminToken}` } })).status).toBe(401);
    const token = readFileSync(path.join(stack.dir, 'metrics-token'), 'utf8').trim();
    const res = await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(new RegExp(`strata_redis_commands_total\\{cluster="metered",cluster_id="${clusterId}",shard="0",instance="[0-9a-f-]+",node="node-\\d",role="primary",class="read"\\} [1-9]\\d*`));
    expect(text).toMatch(/strata_reconcile_passes_total\{outcome="done"\} [1-9]/);
    expect(text).toMatch(/strata_task_queue_depth\{state="pending"\} \d+/);
    expect(text).toMatch(/strata_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/clusters\/:id\/metrics",status="2xx"\} [1-9]/);
  });

  it('refuses bad queries with a clear problem and hides other organizations\' clusters', async () => {
    const bad = await metrics('metric=qps');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors?.[0]?.field).toBe('metric');
    expect((await metrics('metric=ops&by=region')).body.errors?.[0]?.field).toBe('by');
    expect((await metrics('metric=ops&from=yesterday')).body.errors?.[0]?.field).toBe('from');
    expect((await metrics('metric=ops&from=-5h&step=1')).body.errors?.[0]?.field).toBe('step');
    const org = await api.call<{ token: string }>('POST', '/v1/organizations', { name: 'metrics-other' });
    const other = new TestApi(stack.url, org.body.token);
    expect((await other.call<Problem>('GET', `/v1/clusters/${clusterId}/metrics?metric=ops`)).body.code).toBe('not_found');
    expect((await other.call<Problem>('GET', `/v1/clusters/${clusterId}/metrics/stream`)).status).toBe(404);
    expect((await other.call<ClusterCurrentMetricsList>('GET', '/v1/metrics/clusters')).body.items).toEqual([]);
  });

  it("a quiet node's status report rides on its metrics push: one request a second, and its instances stay observed", async () => {
    const token = readFileSync(path.join(stack.dir, 'metrics-token'), 'utf8').trim();
    const count = async () => {
      const text = await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      const sum = (route: RegExp) => text.split('\n')
        .filter((l) => l.startsWith('strata_http_request_duration_seconds_count{') && route.test(l))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
      return { status: sum(/route="\/v1\/agent\/status"/), metrics: sum(/route="\/v1\/agent\/metrics\/?"/) };
    };
    const before = await count();
    await new Promise((r) => setTimeout(r, 5000));
    const after = await count();
    const agents = stack.agents.length;
    // Every agent pushed about once a second; own status reports only for changes (none: the cluster is quiet).
    expect(after.metrics - before.metrics).toBeGreaterThanOrEqual(agents * 4);
    expect(after.status - before.status).toBeLessThan(agents);
    // The carried reports kept every instance observed (a node silent for 5 s would make its instances unknown).
    const topo = (await api.topology(clusterId)).body;
    expect(topo.shards.flatMap((s) => s.instances).map((i) => i.health)).toEqual(new Array(6).fill('healthy'));
    expect((await api.getCluster(clusterId)).body.status.phase).toBe('ready');
  });

  it('refuses metric pushes without a node credential, and malformed batches', async () => {
    const anon = await fetch(`${stack.url}/v1/agent/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"host":[],"instances":[]}' });
    expect(anon.status).toBe(401);
    const agentJson = JSON.parse(readFileSync(path.join(stack.agents[0]!.dir, 'agent.json'), 'utf8')) as { credential: string; nodeId: string };
    const bad = await fetch(`${stack.url}/v1/agent/metrics`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${agentJson.credential}` }, body: '{"host":[{"ts":1,"cpu":7}],"instances":[]}',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Problem).code).toBe('validation_failed');
    // A node cannot report for an instance placed on another node.
    const topo = (await api.topology(clusterId)).body;
    const foreign = topo.shards.flatMap((s) => s.instances).find((i) => i.nodeId !== agentJson.nodeId)!;
    const sample = {
      instanceId: foreign.id, clusterId, ts: Math.floor(Date.now() / 1000) * 1000, intervalMs: 1000, role: 'primary', restarted: false,
      reads: 1_000_000, writes: 0, others: 0, latency: new Array(27).fill(0), latencySumUs: 0, clients: 0, usedMemory: 0, maxMemory: 0, keys: 0,
      evicted: 0, expired: 0, hits: 0, misses: 0, netIn: 0, netOut: 0, cpuSeconds: 0, replicas: [],
    };
    const spoof = await fetch(`${stack.url}/v1/agent/metrics`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${agentJson.credential}` }, body: JSON.stringify({ host: [], instances: [sample] }),
    });
    expect(await spoof.json()).toEqual({ accepted: 0, rejected: 1 });
  });
});
