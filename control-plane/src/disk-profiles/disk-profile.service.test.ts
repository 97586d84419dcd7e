import { describe, expect, it } from 'vitest';
import { presetWorkloads, type DiskProfile, type ProfileResult } from '@strata/api';
import { AppError } from '../errors';
import { DiskProfileService, type ClusterActivity } from './disk-profile.service';
import type { DiskProfileStore } from '../stores/disk-profile.store';

const NODE = '00000000-0000-4000-8000-000000000001';
const MiB = 1024 * 1024;

/** The store's contract in memory: one running profile per node, reports only while running. */
function memoryStore() {
  const rows = new Map<string, DiskProfile & { cancel: boolean }>();
  const store = {
    async insert(p: { id: string; nodeId: string; preset: DiskProfile['preset']; workloads: DiskProfile['workloads']; clusters: ClusterActivity[] }) {
      if ([...rows.values()].some((r) => r.nodeId === p.nodeId && r.status === 'running')) return false;
      rows.set(p.id, {
        id: p.id, nodeId: p.nodeId, nodeName: 'node-1', status: 'running', preset: p.preset, workloads: p.workloads, progress: 0, detail: null, facts: null,
        results: [], advice: null, clusters: p.clusters, error: null, createdAt: new Date().toISOString(), finishedAt: null, cancel: false,
      });
      return true;
    },
    async get(id: string) { return rows.get(id) ?? null; },
    async report(id: string, r: { progress: number; result?: ProfileResult }) {
      const row = rows.get(id);
      if (!row || row.status !== 'running') return { stop: true };
      row.progress = Math.max(row.progress, r.progress);
      if (r.result) row.results.push(r.result);
      return { stop: row.cancel };
    },
    async finish(id: string, f: { status: DiskProfile['status']; error?: DiskProfile['error']; advice?: DiskProfile['advice'] }) {
      const row = rows.get(id);
      if (!row || row.status !== 'running') return false;
      Object.assign(row, { status: f.status, error: f.error ?? null, advice: f.advice ?? null });
      return true;
    },
    async requestCancel(id: string) {
      const row = rows.get(id);
      if (!row || row.status !== 'running') return false;
      row.cancel = true;
      return true;
    },
  };
  return store as unknown as DiskProfileStore;
}

function service(o: { free?: number | null; clusters?: ClusterActivity[]; silent?: boolean } = {}) {
  const enqueued: unknown[] = [];
  const s = new DiskProfileService({
    profiles: memoryStore(),
    nodes: { get: async (id: string) => (id === NODE ? { id, name: 'node-1' } : null) } as never,
    tasks: { enqueue: async (t: unknown) => void enqueued.push(t) } as never,
    isSilent: () => o.silent ?? false,
    freeBytes: () => (o.free === undefined ? 10_000 * MiB : o.free),
    clusterActivity: async () => o.clusters ?? [],
    notifyNode: () => {},
  });
  return { s, enqueued };
}

const problem = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a problem');
};

const result = (index: number, name: string, o: Partial<ProfileResult> = {}): ProfileResult => ({
  index, workload: { ...presetWorkloads('redis')[index]!, name }, iops: 100, mbPerSec: 1, ios: 100, bytes: 100, runtimeMs: 1000,
  latency: { mean: 5, p50: 5, p90: 5, p99: 5, p999: 5, max: 5 }, ...o,
});

describe('starting a disk profile', () => {
  it('enqueues one time-bounded task with the preset expanded', async () => {
    const { s, enqueued } = service();
    const p = await s.start(NODE, { preset: 'redis', fileSize: 4 * MiB, durationSec: 1, force: false });
    expect(p.workloads).toHaveLength(5);
    expect(enqueued).toMatchObject([{ nodeId: NODE, clusterId: p.id, dedupeKey: `disk-profile:${p.id}`, request: { kind: 'disk-profile', profileId: p.id } }]);
    expect((enqueued[0] as { request: { timeLimitSec: number } }).request.timeLimitSec).toBeGreaterThan(3);
    // One per node.
    expect((await problem(s.start(NODE, { preset: 'rebench-default', fileSize: 4 * MiB, force: false }))).code).toBe('conflict');
  });

  it('refuses: unknown node, offline node, too little space (saying how much), busy clusters without force', async () => {
    expect((await problem(service().s.start('00000000-0000-4000-8000-000000000009', { preset: 'redis', force: false }))).status).toBe(404);
    expect((await problem(service({ silent: true }).s.start(NODE, { preset: 'redis', force: false }))).code).toBe('invalid_state');
    const space = await problem(service({ free: 100 * MiB }).s.start(NODE, { preset: 'redis', fileSize: 64 * MiB, force: false }));
    expect(space.status).toBe(422);
    expect(space.code).toBe('insufficient_space');
    expect(space.errors).toEqual([{ field: 'fileSize', message: expect.stringContaining('needs 269 MB free') }]);
    const busy = [{ clusterId: NODE, clusterName: 'orders', opsPerSec: 5000, latencyP99Us: 300 }];
    const refused = await problem(service({ clusters: busy }).s.start(NODE, { preset: 'redis', force: false }));
    expect(refused.code).toBe('node_busy');
    expect(refused.detail).toContain('orders (5000 ops/s)');
    expect((await service({ clusters: busy }).s.start(NODE, { preset: 'redis', force: true })).clusters).toEqual(busy);
    // Unknown free space (no host sample yet): the agent checks before it writes.
    expect((await service({ free: null }).s.start(NODE, { preset: 'redis', force: false })).status).toBe('running');
    // A preset's block size larger than the file asked for.
    expect((await problem(service().s.start(NODE, { preset: 'redis', fileSize: 128 * 1024, force: false }))).errors![0]!.field).toBe('fileSize');
  });
});

describe('agent reports', () => {
  it('results stream, cancel answers stop, a finished run gets the Redis advice', async () => {
    const { s } = service();
    const p = await s.start(NODE, { preset: 'redis', fileSize: 4 * MiB, durationSec: 1, force: false });
    const events: string[] = [];
    s.subscribe(p.id, (e) => events.push(`${e.status}:${e.result?.index ?? '-'}`));
    expect(await s.report(p.id, { progress: 0.1 })).toEqual({ stop: false });
    const sync = { count: 100, latency: { mean: 100, p50: 90, p90: 120, p99: 400, p999: 900, max: 1000 }, histogram: [] };
    const dir = { iops: 100, mbPerSec: 20, ios: 100, bytes: 100, latency: { mean: 4, p50: 4, p90: 4, p99: 4, p999: 4, max: 4 } };
    await s.report(p.id, { progress: 0.3, result: result(0, 'aof-always append', { write: dir, sync }) });
    await s.report(p.id, { progress: 0.6, result: result(2, 'aof-everysec append', { write: dir, sync }) });
    await s.report(p.id, { progress: 0.9, result: result(4, 'rdb-like write burst', { mbPerSec: 300 }) });
    expect(await s.report(p.id, { progress: 1, finished: { status: 'completed' } })).toEqual({ stop: true });
    const done = await s.get(p.id);
    expect(done.status).toBe('completed');
    expect(done.advice!.levels.find((l) => l.durability === 'aof-always')!.writesPerSec).toBeCloseTo(1e6 / (4 + 100 + 60));
    expect(events).toEqual(['running:-', 'running:0', 'running:2', 'running:4', 'completed:-']);
    expect((await problem(s.cancel(p.id))).code).toBe('invalid_state');
  });

  it('a workload fio failed fails the profile; a cancel is answered with stop', async () => {
    const { s } = service();
    const p = await s.start(NODE, { preset: 'rebench-default', fileSize: 4 * MiB, force: false });
    await s.report(p.id, { progress: 0.5, result: result(0, 'x', { error: 'fio reported error 5 for this workload' }) });
    await s.report(p.id, { progress: 1, finished: { status: 'completed' } });
    expect(await s.get(p.id)).toMatchObject({ status: 'failed', error: { message: 'fio reported error 5 for this workload' } });
    const q = await s.start(NODE, { preset: 'rebench-default', fileSize: 4 * MiB, force: false });
    await s.cancel(q.id);
    expect(await s.report(q.id, { progress: 0.2 })).toEqual({ stop: true });
  });
});
