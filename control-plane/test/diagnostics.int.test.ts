/**
 * Diagnostics on real engines: the merged slow log shows a command planted
 * on one shard (and is emptied by a reset); a key scan finds big keys
 * planted on every shard among 20,000 small ones; under allkeys-lfu it
 * names the keys a client hammered as hot, and otherwise says why not; the
 * heat view has every shard; bad input is problem+json naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScan } from '@strata/api';
import type { Cluster as RedisCluster } from 'ioredis';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient } from './helpers/workload';

let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.33', { nodes: 2 }));
});
afterAll(async () => cleanup?.());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForScan(id: string, scanId: string, timeoutMs = 60_000): Promise<KeyScan> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await api.call<KeyScan>('GET', `/v1/clusters/${id}/diagnostics/key-scans/${scanId}`);
    expect(r.status).toBe(200);
    if (r.body.status !== 'running') return r.body;
    if (Date.now() > until) throw new Error(`key scan still running: ${JSON.stringify(r.body.shards.map((s) => s.detail))}`);
    await sleep(200);
  }
}

/** Keys named `prefix:<i>`, `perShard` of them in each shard's slots. */
async function keysPerShard(client: RedisCluster, prefix: string, shards: { start: number; end: number }[][], perShard: number): Promise<string[][]> {
  const out: string[][] = shards.map(() => []);
  for (let i = 0; out.some((l) => l.length < perShard); i++) {
    const key = `${prefix}:${i}`;
    const slot = Number(await client.cluster('KEYSLOT', key));
    const s = shards.findIndex((ranges) => ranges.some((r) => r.start <= slot && slot <= r.end));
    if (s >= 0 && out[s]!.length < perShard) out[s]!.push(key);
  }
  return out;
}

describe('diagnostics', () => {
  it('slow log of every instance merged, with a planted slow command on its shard, emptied by a reset; big keys on every shard; no hot keys without LFU; the heat view', async () => {
    const created = await api.createCluster({ name: 'diag', shards: 2, replicasPerShard: 1, memoryMbPerShard: 128 });
    const id = created.body.cluster.id;
    await api.waitForPhase(id, 'ready');
    const topo = await api.waitForHealthy(id);
    const client = appClient((await api.connection(id)).body.uri);
    try {
      // 20,000 small keys and 3 big ones (1, 2.5 and 5 MB) in each shard.
      for (let start = 0; start < 20_000; start += 1000) {
        await Promise.all(Array.from({ length: 1000 }, (_, k) => client.set(`small:${start + k}`, `v${start + k}`)));
      }
      const slots = topo.shards.map((s) => s.slots);
      const big = await keysPerShard(client, 'big', slots, 3);
      const sizes = [1 << 20, 2.5 * (1 << 20), 5 << 20];
      for (const keys of big) for (const [k, key] of keys.entries()) await client.set(key, 'x'.repeat(sizes[k]!));

      // A command slower than slowlog-log-slower-than (10 ms) on the shard of `slow:key`.
      const slowKey = 'slow:key';
      const slowSlot = Number(await client.cluster('KEYSLOT', slowKey));
      const slowShard = slots.findIndex((ranges) => ranges.some((r) => r.start <= slowSlot && slowSlot <= r.end));
      await client.eval('local i = 0 while i < 4000000 do i = i + 1 end return i', 1, slowKey);

      const log = await api.call<import('@strata/api').SlowLog>('GET', `/v1/clusters/${id}/diagnostics/slowlog`);
      expect(log.status).toBe(200);
      expect(log.body.sources).toHaveLength(4);
      expect(log.body.sources.every((s) => s.ok && s.slowerThanMicros === 10_000)).toBe(true);
      const evals = log.body.entries.filter((e) => e.command === 'EVAL');
      expect(evals).toHaveLength(1);
      expect(evals[0]).toMatchObject({ shard: slowShard, role: 'primary', args: [expect.stringContaining('local i = 0'), '1', slowKey] });
      expect(evals[0]!.durationMicros).toBeGreaterThan(10_000);
      expect(evals[0]!.client).toMatch(/:\d+$/);
      const times = log.body.entries.map((e) => e.at);
      expect(times).toEqual([...times].sort().reverse());

      const reset = await api.call<import('@strata/api').SlowLogReset>('POST', `/v1/clusters/${id}/diagnostics/slowlog/reset`);
      expect(reset.status).toBe(200);
      expect(reset.body.reset).toBe(4);
      const after = await api.call<import('@strata/api').SlowLog>('GET', `/v1/clusters/${id}/diagnostics/slowlog`);
      expect(after.body.entries.filter((e) => e.command === 'EVAL')).toEqual([]);

      // Bad input names the field; nothing starts.
      const badLimit = await api.call<{ code: string; errors: { field: string }[] }>('GET', `/v1/clusters/${id}/diagnostics/slowlog?limit=0`);
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.errors[0]!.field).toBe('limit');
      for (const [body, field] of [[{ topN: 0 }, 'topN'], [{ budgetMs: 10 }, 'budgetMs'], [{ pauseMs: -1 }, 'pauseMs'], [{ batch: 5 }, 'batch']] as const) {
        const r = await api.call<{ code: string; errors: { field: string }[] }>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body).toMatchObject({ code: 'validation_failed', errors: [{ field }] });
      }
      expect((await api.call('GET', `/v1/clusters/${id}/diagnostics/key-scans`)).body).toEqual({ items: [] });
      expect((await api.call('GET', `/v1/clusters/${id}/diagnostics/key-scans/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

      const started = await api.call<KeyScan>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, { topN: 3, batchSize: 500, pauseMs: 20 });
      expect(started.status).toBe(202);
      expect(started.headers.get('location')).toBe(`/v1/clusters/${id}/diagnostics/key-scans/${started.body.id}`);
      expect(started.body.hotKeys).toMatchObject({ available: false, evictionPolicy: 'noeviction', reason: expect.stringContaining('LFU') });
      const second = await api.call<{ code: string }>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, {});
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('scan_in_progress');
      const scan = await waitForScan(id, started.body.id);
      expect(scan.status).toBe('completed');
      expect(scan.shards).toHaveLength(2);
      for (const s of scan.shards) {
        expect(s.result!.complete).toBe(true);
        expect(s.result!.keysScanned).toBeGreaterThanOrEqual(s.result!.keysInShard);
        expect(s.result!.hotKeys).toBeNull();
        // The three planted keys, biggest first, with their type and about their size.
        expect(s.result!.bigKeys.map((k) => k.key)).toEqual([...big[s.shard]!].reverse());
        for (const [k, key] of s.result!.bigKeys.entries()) {
          expect(key.type).toBe('string');
          expect(key.bytes).toBeGreaterThanOrEqual(sizes[2 - k]!);
          expect(key.bytes).toBeLessThan(sizes[2 - k]! * 1.3);
        }
      }
      console.log(`key scan: ${scan.shards.map((s) => `shard ${s.shard + 1} ${s.result!.keysScanned} keys in ${s.result!.elapsedMs} ms, ${s.result!.batches} batches`).join('; ')}`);
      expect((await api.call<{ items: KeyScan[] }>('GET', `/v1/clusters/${id}/diagnostics/key-scans`)).body.items.map((s) => s.id)).toEqual([scan.id]);

      // The last 2 s, after the load (averages over a window that saw it would count fewer keys).
      await sleep(4000);
      const heat = await api.call<import('@strata/api').Heat>('GET', `/v1/clusters/${id}/diagnostics/heat?window=2`);
      expect(heat.status).toBe(200);
      expect(heat.body.shards.map((s) => s.shard)).toEqual([0, 1]);
      expect(heat.body.shards.every((s) => (s.memoryUsedBytes ?? 0) > 8 << 20 && (s.keys ?? 0) > 9000), JSON.stringify(heat.body)).toBe(true);
      expect(heat.body.skew.memory).toBeGreaterThanOrEqual(1);
      expect((await api.call('GET', `/v1/clusters/${id}/diagnostics/heat?window=0`)).status).toBe(400);
    } finally {
      client.disconnect();
    }
    await api.deleteCluster(id);
    await api.waitForGone(id);
  }, 180_000);

  it('hot keys under allkeys-lfu: the keys a client hammered come first', async () => {
    const created = await api.createCluster({ name: 'diag-lfu', shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, evictionPolicy: 'allkeys-lfu' });
    const id = created.body.cluster.id;
    await api.waitForPhase(id, 'ready');
    await api.waitForHealthy(id);
    const client = appClient((await api.connection(id)).body.uri);
    try {
      await Promise.all(Array.from({ length: 2000 }, (_, i) => client.set(`cold:${i}`, 'v')));
      await client.set('hot:a', 'a');
      await client.set('hot:b', 'b');
      for (let round = 0; round < 30; round++) {
        await Promise.all([...Array.from({ length: 100 }, () => client.get('hot:a')), ...Array.from({ length: 30 }, () => client.get('hot:b'))]);
      }
      const started = await api.call<KeyScan>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, { topN: 5 });
      expect(started.status).toBe(202);
      expect(started.body.hotKeys).toMatchObject({ available: true, evictionPolicy: 'allkeys-lfu' });
      const scan = await waitForScan(id, started.body.id);
      const hot = scan.shards[0]!.result!.hotKeys!;
      expect(hot.slice(0, 2).map((k) => k.key)).toEqual(['hot:a', 'hot:b']);
      expect(hot[0]!.freq).toBeGreaterThan(hot[2]!.freq);
      expect(hot[0]!.type).toBe('string');
    } finally {
      client.disconnect();
    }
    await api.deleteCluster(id);
    await api.waitForGone(id);
  }, 120_000);
});
