import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { LoadGenerator, type LoadGeneratorOptions } from './load-generator';
import { decodeHistogram } from '../index';
import { startBenchCluster, type BenchCluster } from '../testing/bench-cluster.fixture';
import { migrateSlots } from '@strata/engine/redis-admin';
import { loopbackAddress } from '@strata/local';

// 3 primaries on 127.0.47.3:7270..7272 (this file's own loopback address; STRATA_TEST_NET moves it).
const RECORDS = 5000;
let cluster: BenchCluster;
const admins = new Map<string, Redis>();

async function admin(endpoint: string): Promise<Redis> {
  let r = admins.get(endpoint);
  if (!r) {
    const [host, port] = endpoint.split(':');
    r = new Redis({ host, port: Number(port), username: cluster.internal.username, password: cluster.internal.password, lazyConnect: true });
    await r.connect();
    admins.set(endpoint, r);
  }
  return r;
}

/** Server counters summed over the primaries: YCSB commands per name (INFO commandstats) and keyspace hits/misses (INFO stats). */
async function serverCounters(): Promise<{ hgetall: number; hset: number; asking: number; all: number; hits: number; misses: number; perEndpoint: Map<string, number> }> {
  const c = { hgetall: 0, hset: 0, asking: 0, all: 0, hits: 0, misses: 0, perEndpoint: new Map<string, number>() };
  for (const e of cluster.seeds) {
    const info = String(await (await admin(e)).info('commandstats')) + String(await (await admin(e)).info('stats'));
    // Per endpoint, every command it received: the ones it ran and the ones it answered with a redirect
    // (MOVED/ASK count as rejected calls), as the worker counts what it sent there.
    let mine = 0;
    for (const m of info.matchAll(/^cmdstat_(hgetall|hset|asking):calls=(\d+).*?rejected_calls=(\d+)/gm)) {
      c[m[1] as 'hgetall' | 'hset' | 'asking'] += Number(m[2]);
      mine += Number(m[2]) + Number(m[3]);
    }
    c.all += mine;
    c.perEndpoint.set(e, mine);
    c.hits += Number(/^keyspace_hits:(\d+)/m.exec(info)![1]);
    c.misses += Number(/^keyspace_misses:(\d+)/m.exec(info)![1]);
  }
  return c;
}

function options(workload: 'ycsb-a' | 'ycsb-c' | 'ycsb-d' | 'ycsb-f', extra: Partial<LoadGeneratorOptions> = {}): LoadGeneratorOptions {
  return {
    threads: 2, connections: 8, pipeline: 1, seeds: cluster.seeds, auth: cluster.customer, workload, recordCount: RECORDS,
    seed: 7, valueSize: 100, ratio: '1:1', keyPattern: 'uniform', engine: 'native', ...extra,
  };
}

const within5 = (client: number, server: number) => Math.abs(server - client) / server;

describe('native load generator worker against a real 3-primary Redis Cluster', () => {
  beforeAll(async () => {
    cluster = await startBenchCluster(loopbackAddress('127.0.47.3'), 3, 7270);
    const loader = await LoadGenerator.start(options('ycsb-c', { pipeline: 16, engine: 'js' }));
    try {
      expect(await loader.load(0, RECORDS)).toMatchObject({ inserted: RECORDS, errors: 0 });
    } finally {
      await loader.close();
    }
  });
  afterAll(async () => {
    for (const a of admins.values()) a.disconnect();
    await cluster?.stop();
  });

  it('YCSB C: reads find the loaded records, ops match the servers\' counters within 5%, latencies in every histogram', async () => {
    const g = await LoadGenerator.start(options('ycsb-c'));
    try {
      expect(g.engine).toBe('native');
      const before = await serverCounters();
      const points: { t: number; count: number }[] = [];
      const s = await g.run({ startAtMs: Date.now() + 100, warmupSec: 0, durationSec: 2 }, (p) => points.push({ t: p.t, count: p.ops.reduce((a, o) => a + o.count, 0) }));
      const after = await serverCounters();
      expect(s.engine).toBe('native');
      const read = s.ops.find((o) => o.op === 'read')!;
      expect(s.ops.map((o) => o.op)).toEqual(['read']);
      expect(read.count).toBeGreaterThan(500);
      expect(read.errors).toBe(0);
      expect(read.misses).toBe(0);
      expect(decodeHistogram(read.service).totalCount).toBe(read.count);
      // every HGETALL the servers ran found its key (the loaded records), and the servers ran as many as the worker counted
      expect(after.misses - before.misses).toBe(0);
      expect(after.hits - before.hits).toBeGreaterThanOrEqual(read.count);
      expect(within5(read.count, after.hgetall - before.hgetall)).toBeLessThan(0.05);
      expect(after.hset - before.hset).toBe(0);
      for (const e of cluster.seeds) expect(within5(s.endpointCommands[e]!, after.perEndpoint.get(e)! - before.perEndpoint.get(e)!)).toBeLessThan(0.05);
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect(s.maxElu).toBeGreaterThan(0);
      expect(s.maxElu).toBeLessThanOrEqual(1.05);
    } finally {
      await g.close();
    }
  });

  it('counts misses: records beyond the loaded ones are not found', async () => {
    const g = await LoadGenerator.start(options('ycsb-c', { recordCount: RECORDS * 2 }));
    try {
      const s = await g.run({ startAtMs: Date.now() + 100, warmupSec: 0, durationSec: 1 });
      const read = s.ops.find((o) => o.op === 'read')!;
      expect(read.misses).toBeGreaterThan(read.count * 0.2);
      expect(read.misses).toBeLessThan(read.count * 0.8);
    } finally {
      await g.close();
    }
  });

  it('YCSB A while a slot range migrates: MOVED and ASK followed (redirects > 0), no errors or misses, ops match the servers\' counters within 5%', async () => {
    const g = await LoadGenerator.start(options('ycsb-a'));
    try {
      const before = await serverCounters();
      const run = g.run({ startAtMs: Date.now() + 100, warmupSec: 0, durationSec: 3 });
      await new Promise((r) => setTimeout(r, 800));
      const [host] = cluster.seeds[0]!.split(':');
      const moved = await migrateSlots({
        targets: [{ host: host!, port: Number(cluster.seeds[1]!.split(':')[1]), slots: [{ start: 0, end: 999 }] }],
        primaries: cluster.seeds.map((e) => ({ host: e.split(':')[0]!, port: Number(e.split(':')[1]) })),
        username: cluster.internal.username,
        password: cluster.internal.password,
        pace: { slotsPerRound: 100 },
      });
      expect(moved.complete).toBe(true);
      expect(moved.keysMoved).toBeGreaterThan(0);
      const s = await run;
      const after = await serverCounters();
      expect(s.engine).toBe('native');
      expect(s.redirects).toBeGreaterThan(0);
      expect(s.firstError).toBeUndefined();
      const byOp = Object.fromEntries(s.ops.map((o) => [o.op, o]));
      for (const op of ['read', 'update']) {
        expect(byOp[op]!.count).toBeGreaterThan(200);
        expect(byOp[op]!.errors).toBe(0);
        expect(byOp[op]!.misses).toBe(0);
      }
      expect(Math.abs(byOp.read!.count / (byOp.read!.count + byOp.update!.count) - 0.5)).toBeLessThan(0.1);
      expect(within5(byOp.read!.count, after.hgetall - before.hgetall)).toBeLessThan(0.05);
      expect(within5(byOp.update!.count, after.hset - before.hset)).toBeLessThan(0.05);
      // every ASKING the servers saw followed an ASK the worker counted as a redirect (4 of 205 redirects in one run here)
      expect(after.asking - before.asking).toBeLessThanOrEqual(s.redirects);
      expect(after.misses - before.misses).toBe(0);
      for (const e of cluster.seeds) expect(within5(s.endpointCommands[e]!, after.perEndpoint.get(e)! - before.perEndpoint.get(e)!)).toBeLessThan(0.05);
      // every update wrote one field of a loaded record: no key was created
      let keys = 0;
      for (const e of cluster.seeds) keys += await (await admin(e)).dbsize();
      expect(keys).toBe(RECORDS);
    } finally {
      await g.close();
    }
  });

  it('YCSB F (read-modify-write) pipelined and D (latest, inserts): commands match the servers, D reads records that exist', async () => {
    const f = await LoadGenerator.start(options('ycsb-f', { pipeline: 4 }));
    try {
      const before = await serverCounters();
      const s = await f.run({ startAtMs: Date.now() + 100, warmupSec: 0, durationSec: 1.5 });
      const after = await serverCounters();
      const byOp = Object.fromEntries(s.ops.map((o) => [o.op, o]));
      expect(byOp.rmw!.count).toBeGreaterThan(100);
      expect(byOp.read!.count).toBeGreaterThan(100);
      for (const o of s.ops) expect([o.errors, o.misses]).toEqual([0, 0]);
      // an rmw is an HGETALL then an HSET
      expect(within5(byOp.read!.count + byOp.rmw!.count, after.hgetall - before.hgetall)).toBeLessThan(0.05);
      expect(within5(byOp.rmw!.count, after.hset - before.hset)).toBeLessThan(0.05);
    } finally {
      await f.close();
    }
    // both engines: the same key choice
    for (const engine of ['native', 'js'] as const) {
      let before = 0;
      for (const e of cluster.seeds) before += await (await admin(e)).dbsize();
      // two threads, 8 connections, 4 ops each in flight: `latest` reads only loaded records and a thread's own
      // inserts up to its first unacknowledged one, so none misses (a key another op is still inserting was a miss before)
      const d = await LoadGenerator.start(options('ycsb-d', { threads: 2, connections: 8, pipeline: 4, engine }));
      try {
        const s = await d.run({ startAtMs: Date.now() + 100, warmupSec: 0, durationSec: 1.5 });
        const byOp = Object.fromEntries(s.ops.map((o) => [o.op, o]));
        expect(byOp.insert!.count).toBeGreaterThan(5);
        expect(byOp.read!.count).toBeGreaterThan(byOp.insert!.count * 5);
        // reads pick among acknowledged records only: none misses
        for (const o of s.ops) expect([o.errors, o.misses]).toEqual([0, 0]);
        let keys = 0;
        for (const e of cluster.seeds) keys += await (await admin(e)).dbsize();
        // the counted inserts, plus at most the ops in flight when the steady window closed (the js run inserts
        // the same keynums as the native one before it: its new keys are only those beyond the native run's)
        if (engine === 'native') expect(keys - before).toBeGreaterThanOrEqual(byOp.insert!.count);
        expect(keys - before).toBeLessThanOrEqual(byOp.insert!.count + 8 * 4);
      } finally {
        await d.close();
      }
    }
  });

  it('stop ends a run early; close ends the processes; a worker that dies fails the run with the reason', async () => {
    const g = await LoadGenerator.start(options('ycsb-c'));
    const pids = g.nativePids;
    expect(pids).toHaveLength(2);
    try {
      const started = Date.now();
      const phases: string[] = [];
      const run = g.run({ startAtMs: Date.now() + 50, warmupSec: 1, durationSec: 60 }, (p) => phases.push(p.phase));
      setTimeout(() => g.stop(), 2500);
      const s = await run;
      expect(Date.now() - started).toBeLessThan(10_000);
      // a warm-up second, then steady seconds; the steady window starts after the warm-up
      expect(phases[0]).toBe('warmup');
      expect(phases).toContain('steady');
      expect(s.steadyEndMs - s.steadyStartMs).toBeGreaterThan(500);
      expect(s.steadyEndMs - s.steadyStartMs).toBeLessThan(3000);
      expect(s.ops.find((o) => o.op === 'read')!.count).toBeGreaterThan(100);
      const dying = g.run({ startAtMs: Date.now() + 50, warmupSec: 0, durationSec: 60 });
      setTimeout(() => process.kill(pids[1]!, 'SIGKILL'), 500);
      await expect(dying).rejects.toThrow(/native load generator worker exited \(SIGKILL\)/);
    } finally {
      await g.close();
    }
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(pids.filter(alive)).toEqual([]);
  });

  it('engine choice: js when asked, for runs the native worker does not do (open loop), or when it is not built (auto says so; native fails)', async () => {
    const missing = '/nonexistent/ycsb-worker';
    await expect(LoadGenerator.start(options('ycsb-c', { engine: 'native', nativeWorker: missing }))).rejects.toThrow(
      `the native worker is not built (no executable ${missing}): run npm run build:native`,
    );
    const fallback = await LoadGenerator.start(options('ycsb-c', { engine: 'auto', nativeWorker: missing }));
    try {
      expect(fallback.engine).toBe('js');
      const s = await fallback.run({ startAtMs: Date.now() + 50, warmupSec: 0, durationSec: 1 });
      expect(s.engine).toBe('js');
      expect(s.engineNote).toMatch(/not built .*npm run build:native/);
      expect(s.ops.find((o) => o.op === 'read')!.count).toBeGreaterThan(0);
    } finally {
      await fallback.close();
    }
    for (const [extra, want] of [[{ engine: 'js' }, 'js'], [{ engine: 'auto', targetOpsPerSec: 500 }, 'js'], [{ engine: 'auto' }, 'native']] as const) {
      const g = await LoadGenerator.start(options('ycsb-c', extra));
      try {
        expect(g.engine).toBe(want);
        const s = await g.run({ startAtMs: Date.now() + 50, warmupSec: 0, durationSec: 1 });
        expect(s.engine).toBe(want);
        expect(s.ops.find((o) => o.op === 'read')!.misses).toBe(0);
      } finally {
        await g.close();
      }
    }
  });
});
