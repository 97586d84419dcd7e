/**
 * Benchmarks against a real stack with replicas (agents on 127.0.85.x):
 * the servers' own per-shard LATENCY HISTOGRAM beside the client's figures,
 * and the "Failover under load" preset: YCSB A while the agent of shard 0's
 * primary kills it. The result records the kill, the control plane's
 * failover event and the time the clients saw no write to that shard; every
 * record and every write a replica acknowledged is still there afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Benchmark, BenchmarkList, BenchmarkRequest, Problem, Topology } from '@strata/api';
import { benchKeyPrefix, ycsbKey } from '@strata/bench';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, DurableWriter } from './helpers/workload';

let api: TestApi;
let cleanup: () => Promise<void>;
let clusterId: string;
let uri: string;
let topology: Topology;

async function waitFinished(id: string, timeoutMs = 150_000): Promise<Benchmark> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const b = (await api.call<Benchmark>('GET', `/v1/benchmarks/${id}`)).body;
    if (['succeeded', 'failed', 'cancelled'].includes(b.state)) return b;
    if (Date.now() > deadline) throw new Error(`benchmark ${id} still ${b.state} (${b.detail})`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.85', { nodes: 3 }));
  const created = await api.createCluster({ name: 'failover-bench', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
  clusterId = created.body.cluster.id;
  await api.waitForPhase(clusterId, 'ready');
  topology = await api.waitForHealthy(clusterId);
  uri = (await api.connection(clusterId)).body.uri;
});

afterAll(async () => {
  await cleanup?.();
});

describe('benchmarks with replicas, run by the agents', () => {
  it("each shard's own LATENCY HISTOGRAM for the steady window sits beside the client's ops", async () => {
    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, {
      workload: 'ycsb-c', recordCount: 3000, durationSec: 3, warmupSec: 1, connections: 6, workers: 2, targetOpsPerSec: 1500, seed: 3,
    });
    expect(r.status).toBe(202);
    const b = await waitFinished(r.body.id);
    expect(b.state).toBe('succeeded');
    const shards = b.result!.shards;
    console.log('server-side latency per shard:', JSON.stringify(shards.map((s) => ({ endpoint: s.endpoint, clientOps: s.clientOps, ...s.serverLatency, buckets: undefined }))));
    expect(shards).toHaveLength(3);
    for (const s of shards) {
      const l = s.serverLatency!;
      expect(l).toBeDefined();
      // HGETALL calls the node executed in the window vs what the client sent there. The server's window is made of
      // its agent's 1 s samples, the client's is its own 3 s steady window: on a loaded machine their edges differ by
      // up to a few hundred ms (10 % was seen), so the bound is 15 %; a miscount (another node's calls, a missed
      // sample) is off by a third or more.
      expect(Math.abs(l.calls - s.clientOps) / s.clientOps).toBeLessThan(0.15);
      expect(l.buckets.reduce((a, b) => a + b.count, 0)).toBe(l.calls);
      expect(l.p50).toBeGreaterThan(0);
      expect(l.p99).toBeGreaterThanOrEqual(l.p50);
      expect(l.max).toBeGreaterThanOrEqual(l.p99);
      // command execution alone is faster than the client's send -> reply
      expect(l.p50 / 2).toBeLessThanOrEqual(b.result!.ops[0]!.service.p50);
    }
  });

  /** A node that does not hold shard 0's primary. */
  const otherNode = () => {
    const victimNode = topology.shards[0]!.instances.find((i) => i.role === 'primary')!.nodeId;
    return topology.shards.flatMap((sh) => sh.instances).map((i) => i.nodeId).find((n) => n !== victimNode)!;
  };

  it('a fault that cannot be done is refused with problem+json naming the field, and nothing is stored', async () => {
    const before = (await api.call<BenchmarkList>('GET', `/v1/clusters/${clusterId}/benchmarks`)).body.items.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ workload: 'ycsb-a', durationSec: 5, fault: { kind: 'kill-primary', atSec: 5 } }, 'fault.atSec'],
      [{ workload: 'analytic', fault: { kind: 'kill-primary' } }, 'fault'],
      [{ workload: 'ycsb-a', operationCount: 1000, fault: { kind: 'kill-primary' } }, 'fault'],
      [{ workload: 'ycsb-a', fault: { kind: 'kill-replica' } }, 'fault.kind'],
      [{ workload: 'ycsb-a', durationSec: 10, fault: { kind: 'kill-primary', shard: 3 } }, 'fault.shard'],
      [{ workload: 'ycsb-a', durationSec: 10, nodeIds: [otherNode()], fault: { kind: 'kill-primary', shard: 0 } }, 'fault'],
    ];
    for (const [body, field] of cases) {
      const r = await api.call<Problem>('POST', `/v1/clusters/${clusterId}/benchmarks`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.errors!.map((e) => e.field), JSON.stringify(body)).toContain(field);
    }
    expect((await api.call<BenchmarkList>('GET', `/v1/clusters/${clusterId}/benchmarks`)).body.items.length).toBe(before);
  });

  it('Failover under load preset: the kill, the failover event and the write gap are recorded; no acknowledged write is lost', async () => {
    const presets = await api.call<{ items: { id: string; request: BenchmarkRequest }[] }>('GET', `/v1/clusters/${clusterId}/benchmark-presets`);
    const preset = presets.body.items.find((p) => p.id === 'failover-under-load')!;
    expect(preset.request).toMatchObject({ workload: 'ycsb-a', fault: { kind: 'kill-primary', shard: 0 } });
    const records = preset.request.recordCount;
    const victim = topology.shards[0]!.instances.find((i) => i.role === 'primary')!;

    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, preset.request);
    expect(r.status).toBe(202);
    // An application writing with replica acknowledgement from the steady phase on (after the key count is taken).
    const deadline = Date.now() + 90_000;
    while ((await api.call<Benchmark>('GET', `/v1/benchmarks/${r.body.id}`)).body.state !== 'running') {
      if (Date.now() > deadline) throw new Error('never running');
      await new Promise((res) => setTimeout(res, 200));
    }
    const writer = new DurableWriter(appClient(uri), 'app', 1).start();
    // Every record loaded (acknowledged) is still readable with all its fields after the replica took over: read
    // while the run goes on, since the run removes its own keys when it ends.
    const eventsBefore = (await api.events(clusterId, '?limit=200')).body.items.filter((e) => e.type === 'failover').length;
    while ((await api.events(clusterId, '?limit=200')).body.items.filter((e) => e.type === 'failover').length === eventsBefore) {
      if (Date.now() > deadline) throw new Error('no failover event');
      await new Promise((res) => setTimeout(res, 200));
    }
    const during = appClient(uri);
    let complete = 0;
    try {
      const prefix = benchKeyPrefix(r.body.id);
      for (let start = 0; start < records; start += 500) {
        const batch = await Promise.all(Array.from({ length: Math.min(500, records - start) }, (_, k) => during.hlen(prefix + ycsbKey(start + k))));
        complete += batch.filter((n) => n === 10).length;
      }
    } finally {
      during.disconnect();
    }
    // Every record readable: the property holds whatever the run's state now. Should some be missing, say whether
    // the run had ended meanwhile (it removes its records then: the read came too late to judge).
    const stateAfterRead = (await api.call<Benchmark>('GET', `/v1/benchmarks/${r.body.id}`)).body.state;
    expect(complete, stateAfterRead === 'running' ? 'records lost while the run went on' : `the run had ended (${stateAfterRead}) before every record was read`).toBe(records);
    const b = await waitFinished(r.body.id);
    await writer.stop();
    expect(b.state).toBe('succeeded');
    const res = b.result!;
    const f = res.fault!;
    console.log('failover under load:', JSON.stringify({ fault: f, opsPerSec: res.opsPerSec, series: res.series.map((p) => [p.t, p.ops, p.writes, p.errors]), reasons: res.validity.reasons }));

    // The kill, by the victim's agent, at atSec into the steady phase.
    expect(f.instanceId).toBe(victim.id);
    expect(f.injectError).toBeUndefined();
    expect(f.injectedAtT!).toBeGreaterThanOrEqual(preset.request.fault!.atSec - 0.5);
    expect(f.injectedAtT!).toBeLessThan(preset.request.fault!.atSec + 2);
    // The control plane's failover event for that shard, after the kill.
    const events = (await api.events(clusterId, '?limit=200')).body.items.filter((e) => e.type === 'failover' && e.shard === 0);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(f.failoverCause).toBe('process-crash');
    expect(f.failoverAtT!).toBeGreaterThan(f.injectedAtT!);
    // The time without writes to the shard, measured by the clients: it starts at the kill and ends after the replica took over.
    expect(f.writeGapMs).toBeGreaterThan(0);
    expect(f.writeGapStartT!).toBeGreaterThanOrEqual(f.injectedAtT! - 0.5);
    expect(f.writeGapStartT!).toBeLessThanOrEqual(f.injectedAtT! + 0.5);
    expect(f.writeGapEndT!).toBeGreaterThanOrEqual(f.failoverAtT! - 0.5);
    expect(f.errors).toBeGreaterThan(0);
    // The time series shows the failover: its errors fall in the seconds of the kill and the write gap, and only
    // there. (Throughput alone cannot show it: a gap of a few hundred ms on one shard of three dents a second by a
    // few percent, less than a loaded machine's drift from second to second.)
    const withErrors = res.series.filter((p) => (p.errors ?? 0) > 0).map((p) => p.t);
    expect(withErrors.length).toBeGreaterThan(0);
    for (const t of withErrors) {
      expect(t).toBeGreaterThanOrEqual(Math.floor(f.injectedAtT!));
      expect(t).toBeLessThanOrEqual(Math.ceil(f.writeGapEndT!) + 2);
    }
    expect(res.series.every((p) => p.writes !== undefined)).toBe(true);
    // The run is judged on everything but the errors the fault caused.
    for (const reason of res.validity.reasons) expect(['client-cpu', 'schedule-lag', 'redirects']).toContain(reason.gate);

    // Every write a replica acknowledged survived too.
    const fresh = appClient(uri);
    try {
      expect(writer.acked.length).toBeGreaterThan(10);
      expect(await writer.lost(fresh)).toEqual([]);
    } finally {
      fresh.disconnect();
      writer['client'].disconnect();
    }
  });
});
