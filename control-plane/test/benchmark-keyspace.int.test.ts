import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster as RedisCluster } from 'ioredis';
import type { Benchmark, Connection } from '@strata/api';
import { BENCH_KEY_SPACE, ycsbKey } from '@strata/bench';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { standalone } from './helpers/redis-client';
import type { Stack } from '@strata/local';

// A benchmark on a cluster that holds a customer's data: 10,000 keys named as YCSB and
// memtier name theirs (user<fnv hash> hashes, memtier-<n> strings), must be left as they were, and the run sees only its own keys.
let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let clusterId: string;
let conn: Connection;
let client: RedisCluster;

const USER_KEYS = 10_000;
/** A third are hashes named as YCSB names its records, a third strings named as memtier's getset keys. */
const customerKey = (i: number) => (i % 3 === 0 ? ycsbKey(i) : i % 3 === 1 ? `memtier-${i}` : `customer:${i}`);
const isHash = (i: number) => i % 3 === 0;
const customerValue = (i: number) => `value of customer key ${i}`;

async function waitFinished(id: string, timeoutMs = 90_000): Promise<Benchmark> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const b = (await api.call<Benchmark>('GET', `/v1/benchmarks/${id}`)).body;
    if (['succeeded', 'failed', 'cancelled'].includes(b.state)) return b;
    if (Date.now() > deadline) throw new Error(`benchmark ${id} still ${b.state} (${b.detail})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every key on the primaries (the cluster has no replicas), by SCAN. */
async function allKeys(): Promise<string[]> {
  const out: string[] = [];
  for (const seed of conn.seeds) {
    const c = standalone(seed, { username: conn.username, password: conn.password });
    await c.connect();
    let cursor = '0';
    do {
      const [next, keys] = await c.scan(cursor, 'COUNT', 1000);
      cursor = next;
      out.push(...keys);
    } while (cursor !== '0');
    c.disconnect();
  }
  return out;
}

/** Exactly the customer's keys, with their values and types; polled: the agents remove a run's keys as it ends. */
async function expectOnlyCustomerData(): Promise<void> {
  const deadline = Date.now() + 15_000;
  let keys = await allKeys();
  while (keys.length !== USER_KEYS && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    keys = await allKeys();
  }
  expect(keys.filter((k) => k.startsWith(BENCH_KEY_SPACE)).slice(0, 5)).toEqual([]);
  expect(new Set(keys)).toEqual(new Set(Array.from({ length: USER_KEYS }, (_, i) => customerKey(i))));
  const wrong: string[] = [];
  for (let i = 0; i < USER_KEYS; i += 500) {
    const batch = Array.from({ length: 500 }, (_, k) => i + k);
    const values = await Promise.all(batch.map((j) => (isHash(j) ? client.hgetall(customerKey(j)) : client.get(customerKey(j)))));
    batch.forEach((j, n) => {
      const v = values[n];
      const ok = isHash(j) ? JSON.stringify(v) === JSON.stringify({ field0: customerValue(j) }) : v === customerValue(j);
      if (!ok) wrong.push(`${customerKey(j)}: ${JSON.stringify(v)}`);
    });
  }
  expect(wrong.slice(0, 5)).toEqual([]);
}

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.44'));
  const created = await api.createCluster({ name: 'customer-data', shards: 3, replicasPerShard: 0, memoryMbPerShard: 64 });
  clusterId = created.body.cluster.id;
  await api.waitForPhase(clusterId, 'ready');
  conn = (await api.connection(clusterId)).body;
  client = new RedisCluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
    redisOptions: { username: conn.username, password: conn.password },
  });
  for (let i = 0; i < USER_KEYS; i += 500) {
    await Promise.all(Array.from({ length: 500 }, (_, k) => i + k).map((j) => (isHash(j) ? client.hset(customerKey(j), 'field0', customerValue(j)) : client.set(customerKey(j), customerValue(j)))));
  }
});

afterAll(async () => {
  client?.disconnect();
  await cleanup?.();
});

describe("benchmarks keep to their own key space", () => {
  it("YCSB A on a cluster holding 10,000 customer keys: a valid run counting only its own records, then exactly the customer's keys with their values; keys a crashed run left are swept", async () => {
    // What an earlier run whose agent crashed would have left.
    await Promise.all([1, 2, 3].map((i) => client.hset(`${BENCH_KEY_SPACE}deadbeef:user${i}`, 'field0', 'x')));
    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, {
      workload: 'ycsb-a', recordCount: 2000, durationSec: 2, warmupSec: 0, connections: 4, workers: 2,
    });
    expect(r.status).toBe(202);
    const b = await waitFinished(r.body.id);
    expect(b.state, JSON.stringify(b.error)).toBe('succeeded');
    expect(b.result!.loadedKeys).toBe(2000);
    expect(b.result!.validity.reasons.filter((x) => x.gate === 'key-count')).toEqual([]);
    expect(b.result!.totalOps).toBeGreaterThan(0);
    await expectOnlyCustomerData();
  });

  it("a cancelled run removes its keys too", async () => {
    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, {
      workload: 'ycsb-a', recordCount: 3000, durationSec: 60, warmupSec: 0, connections: 4, workers: 2,
    });
    expect(r.status).toBe(202);
    const deadline = Date.now() + 60_000;
    while ((await api.call<Benchmark>('GET', `/v1/benchmarks/${r.body.id}`)).body.state !== 'running') {
      if (Date.now() > deadline) throw new Error('never running');
      await new Promise((res) => setTimeout(res, 200));
    }
    expect((await allKeys()).some((k) => k.startsWith(BENCH_KEY_SPACE))).toBe(true);
    expect((await api.call('POST', `/v1/benchmarks/${r.body.id}/cancel`)).status).toBe(202);
    expect((await waitFinished(r.body.id)).state).toBe('cancelled');
    await expectOnlyCustomerData();
  });

  it("memtier-style pipelined GET/SET (the memtier preset) writes only its own keys", async () => {
    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, {
      workload: 'getset', recordCount: 6000, durationSec: 2, warmupSec: 0, connections: 6, pipeline: 16, ratio: '1:1', valueSize: 100, workers: 1,
    });
    const b = await waitFinished(r.body.id);
    expect(b.state, JSON.stringify(b.error)).toBe('succeeded');
    expect(b.result!.loadedKeys).toBe(6000);
    expect(b.result!.totalOps).toBeGreaterThan(0);
    await expectOnlyCustomerData();
  });

  it("analytic visits only the run's records, none of the customer's hashes", async () => {
    const r = await api.call<Benchmark>('POST', `/v1/clusters/${clusterId}/benchmarks`, { workload: 'analytic', recordCount: 1500, runs: 1, connections: 3, workers: 1 });
    const b = await waitFinished(r.body.id);
    expect(b.state, JSON.stringify(b.error)).toBe('succeeded');
    expect(b.result!.analytic!.records).toBe(1500);
    expect(b.result!.validity.reasons.filter((x) => x.gate === 'key-count' || x.gate === 'errors')).toEqual([]);
    await expectOnlyCustomerData();
  });
});
