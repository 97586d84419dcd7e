import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DiskProfile, DiskProfileProgressEvent, DurabilityAdviceList, NodeList, Problem, ProfileResult, ProfileWorkloadInput } from '@strata/api';
import { readSse, type Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { standalone } from './helpers/redis-client';

// Disk profiles through the API, run by a real agent with fio on small files (a few MB, 1 s per workload).
let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let nodeId: string;

const MiB = 1024 * 1024;
const SMALL = { fileSize: 8 * MiB, durationSec: 1 };

const nodeDir = () => stack.agents[0]!.dir;
const profileDir = () => path.join(nodeDir(), 'disk-profile');

/** fio (or setpriv about to exec it) working under this node's directory. */
function fioPids(): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      const comm = readFileSync(`/proc/${n}/comm`, 'utf8').trim();
      if (comm !== 'fio' && comm !== 'setpriv') return [];
      if (/\) Z /.test(readFileSync(`/proc/${n}/stat`, 'utf8'))) return [];
      return readlinkSync(`/proc/${n}/cwd`).startsWith(nodeDir()) ? [Number(n)] : [];
    } catch {
      return [];
    }
  });
}

/** Files a profile left on the node (the directory may stay only while a run is on). */
const leftFiles = () => (existsSync(profileDir()) ? readdirSync(profileDir(), { recursive: true }) : []);

async function start(body: unknown): Promise<DiskProfile> {
  const r = await api.call<{ profile: DiskProfile }>('POST', `/v1/nodes/${nodeId}/profiles`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  expect(r.headers.get('location')).toBe(`/v1/profiles/${r.body.profile.id}`);
  return r.body.profile;
}

async function waitUntil<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const get = async (id: string) => (await api.call<DiskProfile>('GET', `/v1/profiles/${id}`)).body;
const finished = (id: string, timeoutMs = 60_000) => waitUntil(`profile ${id} to finish`, async () => {
  const p = await get(id);
  return p.status === 'running' ? undefined : p;
}, timeoutMs);

/** ops x block size = bytes; bytes over the runtime = MB/s; percentiles in order. */
function expectConsistent(r: ProfileResult): void {
  const label = r.workload.name ?? `workload ${r.index}`;
  expect(r.error, label).toBeUndefined();
  expect(r.iops, label).toBeGreaterThan(0);
  expect(r.bytes, label).toBe(r.ios * r.workload.blockSize);
  expect(r.iops * r.workload.blockSize, label).toBeCloseTo(r.mbPerSec * 1e6, -Math.ceil(Math.log10(r.mbPerSec * 1e6 * 0.01)));
  // fio's runtime-based rate and its byte count agree (the runtime is in ms).
  expect(Math.abs(r.bytes / (r.runtimeMs / 1000) - r.mbPerSec * 1e6) / (r.mbPerSec * 1e6), label).toBeLessThan(0.05);
  const l = r.latency;
  expect(l.p50, label).toBeGreaterThan(0);
  expect(l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max, `${label}: ${JSON.stringify(l)}`).toBe(true);
  // One thread at queue depth 1 does one I/O at a time: IOPS cannot exceed 1 / mean latency (by more than timing noise).
  if (r.workload.threads === 1 && r.workload.queueDepth === 1 && !r.sync) expect(r.iops, label).toBeLessThan((1e6 / l.mean) * 1.25);
}

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.43', { nodes: 1 }));
  nodeId = (await api.call<NodeList>('GET', '/v1/nodes')).body.items[0]!.id;
  // Free space is known from the node's host samples.
  await waitUntil('the node\'s disk figures', async () => {
    const r = await api.call<{ items: { diskTotal: number | null }[] }>('GET', '/v1/metrics/nodes');
    return r.body.items[0]?.diskTotal ? true : undefined;
  }, 20_000);
});

afterAll(async () => {
  await cleanup?.();
});

describe('disk profiles through the API, run by the agent with fio', () => {
  it('refuses nonsense with problem+json naming the field, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ workloads: [{ blockSize: 0 }] }, 'workloads.0.blockSize'],
      [{ workloads: [{ pattern: 'spiral' }] }, 'workloads.0.pattern'],
      [{ workloads: [{ ioCall: 'libaio', queueDepth: 10_000 }] }, 'workloads.0.queueDepth'],
      [{ workloads: [{ direct: true, blockSize: 1000 }] }, 'workloads.0.blockSize'],
      [{ preset: 'fastest' }, 'preset'],
      [{}, 'preset'],
      [{ preset: 'redis', workloads: [{}] }, 'preset'],
      [{ preset: 'redis', fileSize: 128 * 1024 }, 'fileSize'],
      [{ preset: 'redis', bogus: 1 }, 'bogus'],
    ];
    for (const [body, field] of cases) {
      const r = await api.call<Problem>('POST', `/v1/nodes/${nodeId}/profiles`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.errors!.map((e) => e.field), JSON.stringify(body)).toContain(field);
    }
    expect((await api.call<{ items: DiskProfile[] }>('GET', `/v1/nodes/${nodeId}/profiles`)).body.items).toEqual([]);
  });

  it('refuses when free space is under twice the test files, saying how much is needed', async () => {
    // 16 TiB, the largest file a workload may ask for: twice that is more than any disk here.
    const r = await api.call<Problem>('POST', `/v1/nodes/${nodeId}/profiles`, { workloads: [{ fileSize: 16 * 1024 * 1024 * MiB }] });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.code).toBe('insufficient_space');
    expect(r.body.errors![0]!.field).toBe('workloads');
    expect(r.body.detail).toMatch(/needs 35,184,373 MB/);
    expect(leftFiles()).toEqual([]);
  });

  it('the Rebench default: node facts, plausible figures, a live stream; one profile per node (409)', async () => {
    const p = await start({ preset: 'rebench-default', ...SMALL });
    expect(p.status).toBe('running');
    expect(p.workloads).toMatchObject([{ blockSize: 512, direct: true, pattern: 'random', distribution: 'uniform', fileSize: 8 * MiB, durationSec: 1 }]);
    const again = await api.call<Problem>('POST', `/v1/nodes/${nodeId}/profiles`, { preset: 'redis', ...SMALL });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const events: DiskProfileProgressEvent[] = [];
    const res = await fetch(`${stack.url}/v1/profiles/${p.id}/stream`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    let end: { status: string } | undefined;
    await readSse(res, (event, data) => {
      if (event === 'end') {
        end = JSON.parse(data!) as { status: string };
        return true;
      }
      if (event === 'progress' && data) events.push(JSON.parse(data) as DiskProfileProgressEvent);
    });
    expect(end).toEqual({ status: 'completed' });
    expect(events.some((e) => e.result?.index === 0)).toBe(true);
    expect(events.at(-1)!.progress).toBe(1);
    const done = await get(p.id);
    expect(done.status).toBe('completed');
    expect(done.results).toHaveLength(1);
    expectConsistent(done.results[0]!);
    expect(done.facts).toMatchObject({ dataDir: expect.stringContaining(nodeDir()), kernel: expect.stringContaining(os.release()), fioVersion: expect.stringMatching(/^fio-3\./) });
    expect(done.facts!.filesystem).not.toBe('unknown');
    expect(done.facts!.freeBytes).toBeGreaterThan(0);
    expect(leftFiles()).toEqual([]);
    expect(fioPids()).toEqual([]);
  });

  it('the sweeps: IOPS and MB/s against block size, latency against queue depth', async () => {
    const bs = await finished((await start({ preset: 'block-size-sweep', ...SMALL })).id);
    expect(bs.status).toBe('completed');
    expect(bs.results.map((r) => r.workload.blockSize)).toEqual([512, 4096, 16384, 65536, 262144, 1048576]);
    bs.results.forEach(expectConsistent);
    // Bigger blocks move more bytes per second and fewer I/Os.
    expect(bs.results.at(-1)!.mbPerSec).toBeGreaterThan(bs.results[0]!.mbPerSec);
    expect(bs.results.at(-1)!.iops).toBeLessThan(bs.results[0]!.iops);
    const qd = await finished((await start({ preset: 'queue-depth-sweep', ...SMALL })).id);
    expect(qd.status).toBe('completed');
    expect(qd.results.map((r) => r.workload.queueDepth)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    qd.results.forEach(expectConsistent);
    // 64 I/Os in flight wait for each other: their latency is above one at a time.
    expect(qd.results.at(-1)!.latency.p50).toBeGreaterThan(qd.results[0]!.latency.p50);
    expect(leftFiles()).toEqual([]);
  });

  it('the Redis profile: fsync latency, durability advice, shown to every signed-in user', async () => {
    const p = await finished((await start({ preset: 'redis', ...SMALL })).id);
    expect(p.status, JSON.stringify(p.error)).toBe('completed');
    expect(p.results).toHaveLength(5);
    p.results.forEach(expectConsistent);
    const always = p.results.find((r) => r.workload.name === 'aof-always append')!;
    // fdatasync after every write: about as many syncs as writes.
    expect(always.sync!.count).toBeGreaterThan(always.ios * 0.9);
    expect(always.sync!.histogram.reduce((a, b) => a + b.count, 0)).toBe(always.sync!.count);
    const everysec = p.results.find((r) => r.workload.name === 'aof-everysec append')!;
    expect(everysec.sync!.count).toBeLessThan(everysec.ios / 500);
    const level = (d: string) => p.advice!.levels.find((l) => l.durability === d)!;
    expect(level('aof-always').writesPerSec).toBeGreaterThan(0);
    expect(level('aof-always').writesPerSec).toBeLessThan(always.iops);
    expect(level('aof-everysec').writesPerSec).toBeGreaterThan(level('aof-always').writesPerSec!);
    expect(level('none').writesPerSec).toBeNull();
    const advice = (await api.call<DurabilityAdviceList>('GET', '/v1/durability-advice')).body;
    expect(advice.items.map((i) => i.profileId)).toEqual([p.id]);
    expect(advice.fleet!.levels).toEqual(p.advice!.levels);
  });

  it('the vocabulary: direct reads slower than cached ones, and every parameter runs', async () => {
    const w = (x: ProfileWorkloadInput): ProfileWorkloadInput => ({ fileSize: 8 * MiB, durationSec: 1, ...x });
    const workloads: ProfileWorkloadInput[] = [
      w({ name: 'direct', blockSize: 4096, direct: true }),
      w({ name: 'cached', blockSize: 4096, direct: false }),
      w({ name: 'zipf mixed', operation: 'mixed', readPercent: 70, distribution: 'zipf', distributionParam: 1.1 }),
      w({ name: 'normal', distribution: 'normal', distributionParam: 5, ioCall: 'read' }),
      w({ name: 'pareto', distribution: 'pareto', distributionParam: 0.3, ioCall: 'mmap' }),
      w({ name: 'backward stride', pattern: 'sequential', direction: 'backward', strideBytes: 4096 }),
      w({ name: 'o-sync writes', operation: 'write', flush: 'o-sync', threads: 2, noatime: true }),
      w({ name: 'io_uring', ioCall: 'io_uring', queueDepth: 8, direct: true, group: 1 }),
      w({ name: 'fsync every 8', operation: 'write', pattern: 'sequential', flush: 'fsync', flushEvery: 8, group: 1 }),
    ];
    const p = await finished((await start({ workloads })).id);
    expect(p.status, JSON.stringify(p.error)).toBe('completed');
    expect(p.results.map((r) => r.workload.name)).toEqual(workloads.map((x) => x.name));
    p.results.forEach(expectConsistent);
    const byName = (n: string) => p.results.find((r) => r.workload.name === n)!;
    // The file is in the page cache (fio laid it out just before): buffered reads never wait for the disk. Compared by
    // the fastest read, not IOPS or the median: beside the rest of npm test a CPU-bound cached run gets few slices of a
    // core, and its IOPS and even its median read fall behind direct I/O's, while its fastest read is a copy from memory.
    expect(byName('cached').read!.latency.min, JSON.stringify({ cached: byName('cached').read, direct: byName('direct').read })).toBeLessThan(byName('direct').read!.latency.min!);
    expect(byName('zipf mixed').read!.ios).toBeGreaterThan(byName('zipf mixed').write!.ios);
    expect(byName('fsync every 8').sync!.count).toBeGreaterThan(0);
    expect(byName('fsync every 8').sync!.count).toBeLessThan(byName('fsync every 8').ios / 4);
  });

  it('cancel kills fio and leaves no file', async () => {
    const p = await start({ preset: 'block-size-sweep', fileSize: 8 * MiB, durationSec: 5 });
    await waitUntil('fio to run', () => (fioPids().length ? true : undefined), 20_000);
    const c = await api.call<DiskProfile>('POST', `/v1/profiles/${p.id}/cancel`);
    expect(c.status).toBe(202);
    const done = await finished(p.id, 10_000);
    expect(done.status).toBe('cancelled');
    expect(fioPids()).toEqual([]);
    expect(leftFiles()).toEqual([]);
    expect((await api.call<Problem>('POST', `/v1/profiles/${p.id}/cancel`)).status).toBe(409);
  });

  it('an agent killed mid-run leaves no fio and no file; the profile fails', async () => {
    const p = await start({ preset: 'block-size-sweep', fileSize: 8 * MiB, durationSec: 5 });
    await waitUntil('fio to run', () => (fioPids().length ? true : undefined), 20_000);
    const agent = stack.agents[0]!;
    const before = agent.proc!.child.pid!;
    process.kill(before, 'SIGKILL');
    // fio dies with its agent (pdeathsig), at once.
    await waitUntil('fio to die with its agent', () => (fioPids().length === 0 ? true : undefined), 3000);
    // The launcher restarts the agent; its start sweeps the files; the task's second lease fails the profile.
    const done = await finished(p.id, 40_000);
    expect(done.status).toBe('failed');
    expect(['agent-restarted', 'agent-lost']).toContain(done.error!.code);
    expect(agent.proc!.child.pid).not.toBe(before);
    expect(fioPids()).toEqual([]);
    expect(leftFiles()).toEqual([]);
  });

  it('busy clusters on the node: refused without force, their load shown during a forced run', async () => {
    const created = await api.createCluster({ name: 'busy-beside', shards: 1, replicasPerShard: 0 });
    const clusterId = created.body.cluster.id;
    await api.waitForPhase(clusterId, 'ready');
    const conn = (await api.connection(clusterId)).body;
    const redis = standalone(conn.seeds[0]!, { username: conn.username, password: conn.password });
    await redis.connect();
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) await redis.set(`k${i % 1000}`, 'v');
    })();
    try {
      await waitUntil('the cluster to look busy', async () => {
        const m = await api.call<{ items: { clusterId: string; ops: number | null }[] }>('GET', '/v1/metrics/clusters');
        return (m.body.items.find((x) => x.clusterId === clusterId)?.ops ?? 0) > 200 ? true : undefined;
      }, 20_000);
      const refused = await api.call<Problem>('POST', `/v1/nodes/${nodeId}/profiles`, { preset: 'rebench-default', ...SMALL });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('node_busy');
      expect(refused.body.detail).toContain('busy-beside');
      expect(refused.body.errors![0]!.field).toBe('force');
      const p = await start({ preset: 'block-size-sweep', fileSize: 8 * MiB, durationSec: 2, force: true });
      expect(p.clusters.find((c) => c.clusterId === clusterId)!.opsPerSec).toBeGreaterThan(100);
      // The stream carries the cluster's load while fio runs.
      const res = await fetch(`${stack.url}/v1/profiles/${p.id}/stream`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
      let seen: DiskProfileProgressEvent | undefined;
      await readSse(res, (event, data) => {
        if (event !== 'progress' || !data) return event === 'end';
        const e = JSON.parse(data) as DiskProfileProgressEvent;
        if (e.status === 'running' && e.clusters?.some((c) => c.clusterId === clusterId && (c.opsPerSec ?? 0) > 0 && c.latencyP99Us !== null)) {
          seen = e;
          return true;
        }
      });
      expect(seen).toBeDefined();
      expect((await api.call('POST', `/v1/profiles/${p.id}/cancel`)).status).toBe(202);
      expect((await finished(p.id, 10_000)).status).toBe('cancelled');
    } finally {
      loading = false;
      await load.catch(() => {});
      redis.disconnect();
    }
  });
});
