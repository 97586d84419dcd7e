import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { BenchmarkRequest, type BenchmarkWorkerReport } from '@strata/api';
import { newHistogram, recordUs, encodeHistogram } from '@strata/bench';
import { BenchmarkCoordinator, WORKER_SILENCE_MS } from './benchmark-coordinator';
import { BenchmarkRun } from './benchmark-run';
import type { BenchmarkStore } from '../stores/benchmark.store';

const NODE_A = '00000000-0000-4000-8000-00000000000a';
const NODE_B = '00000000-0000-4000-8000-00000000000b';

type FailoverLookup = ConstructorParameters<typeof BenchmarkCoordinator>[0]['failoverAfter'];

function setup(request: Record<string, unknown>, fault?: { failoverAfter: FailoverLookup }) {
  let now = 1_000_000;
  const finished: { state: string; result?: unknown; error?: unknown }[] = [];
  const store = { progress: async () => {}, finish: async (_id: string, f: { state: string }) => void finished.push(f) } as unknown as BenchmarkStore;
  const c = new BenchmarkCoordinator({ store, log: pino({ level: 'silent' }), environment: async () => ({ engineVersion: '7', shards: 2, replicasPerShard: 0, durability: 'none' }), now: () => now, failoverAfter: fault?.failoverAfter, failoverWaitMs: 0 });
  const run = new BenchmarkRun('b1', 'c1', BenchmarkRequest.parse(request), 5, [
    { index: 0, nodeId: NODE_A, address: '10.0.0.1', threads: 1, connections: 2 },
    { index: 1, nodeId: NODE_B, address: '10.0.0.2', threads: 1, connections: 2 },
  ], now, fault ? { kind: 'kill-primary', shard: 1, instanceId: '00000000-0000-4000-8000-0000000000f1', nodeId: NODE_B, endpoint: '10.0.0.2:7001' } : undefined);
  c.add(run);
  const h = newHistogram();
  recordUs(h, 100);
  const hist = encodeHistogram(h);
  const report = (node: string, r: BenchmarkWorkerReport) => c.report('b1', node, node === NODE_A ? 'ta' : 'tb', r);
  const done = (count: number): BenchmarkWorkerReport => ({ kind: 'done', ops: [{ op: 'read', count, errors: 0, misses: 0, service: hist }], endpointCommands: { 'x:1': count }, steadyStartMs: 0, steadyEndMs: 1000, maxElu: 0.2, redirects: 0, keyCount: 100, serverCommands: { 'x:1': 2 * count } });
  return { c, run, report, done, finished, advance: (ms: number) => (now += ms), tick: () => (c as unknown as { watchdog(): void }).watchdog() };
}

describe('BenchmarkCoordinator', () => {
  it('starts hosts together: every host loads its key range, then all run at one start time, and the result merges them', async () => {
    const t = setup({ workload: 'ycsb-c', recordCount: 100, durationSec: 1, warmupSec: 0 });
    expect(await t.report(NODE_A, { kind: 'ready', primaries: ['x:1'] })).toEqual({ action: 'wait' });
    expect(await t.report(NODE_B, { kind: 'ready', primaries: ['x:1'] })).toEqual({ action: 'load', from: 50, to: 100 });
    expect(await t.report(NODE_A, { kind: 'poll' })).toEqual({ action: 'load', from: 0, to: 50 });
    expect(await t.report(NODE_A, { kind: 'poll' })).toEqual({ action: 'wait' });
    expect(t.run.state).toBe('loading');
    expect(await t.report(NODE_A, { kind: 'loaded', inserted: 50, errors: 0 })).toEqual({ action: 'wait' });
    const runB = await t.report(NODE_B, { kind: 'loaded', inserted: 50, errors: 0 });
    const runA = await t.report(NODE_A, { kind: 'poll' });
    expect(runA.action).toBe('run');
    expect(runB).toMatchObject({ action: 'run', measureServer: false });
    expect(runA).toMatchObject({ measureServer: true });
    expect((runA as { startAtMs: number }).startAtMs).toBe((runB as { startAtMs: number }).startAtMs);
    await t.report(NODE_A, { kind: 'interval', t: 1, phase: 'steady', ops: [] });
    expect(t.run.points.length).toBe(0); // waits for every host's second
    await t.report(NODE_B, { kind: 'interval', t: 1, phase: 'steady', ops: [] });
    expect(t.run.points.length).toBe(1);
    await t.report(NODE_A, t.done(10));
    expect(await t.report(NODE_B, t.done(20))).toEqual({ action: 'wait' }); // the result is being built
    await new Promise((r) => setTimeout(r, 10));
    expect(await t.report(NODE_B, { kind: 'poll' })).toEqual({ action: 'exit' });
    expect(t.finished[0]!.state).toBe('succeeded');
    const result = t.finished[0]!.result as { totalOps: number; loadedKeys: number; shards: unknown[] };
    expect(result.totalOps).toBe(30);
    expect(result.loadedKeys).toBe(100);
    expect(result.shards).toEqual([{ endpoint: 'x:1', clientOps: 30, serverOps: 20 }]);
  });

  it('a progress report that arrives after the last host loaded does not take the run step away from its worker, nor the run back to loading', async () => {
    const t = setup({ workload: 'ycsb-c', recordCount: 100, durationSec: 1, warmupSec: 0 });
    await t.report(NODE_A, { kind: 'ready', primaries: ['x:1'] });
    await t.report(NODE_B, { kind: 'ready', primaries: ['x:1'] });
    await t.report(NODE_A, { kind: 'poll' });
    expect(await t.report(NODE_A, { kind: 'loaded', inserted: 50, errors: 0 })).toEqual({ action: 'wait' });
    expect(await t.report(NODE_B, { kind: 'loaded', inserted: 50, errors: 0 })).toMatchObject({ action: 'run' });
    // A's last progress report (sent before its 'loaded', without waiting for the answer) lands now
    expect(await t.report(NODE_A, { kind: 'load-progress', done: 47 })).toEqual({ action: 'wait' });
    expect(t.run.state).not.toBe('loading');
    expect(await t.report(NODE_A, { kind: 'poll' })).toMatchObject({ action: 'run' });
  });

  it('cancel: running workers are told to stop, then to exit', async () => {
    const t = setup({ workload: 'ycsb-c', recordCount: 100, load: false });
    await t.report(NODE_A, { kind: 'ready', primaries: [] });
    await t.report(NODE_B, { kind: 'ready', primaries: [] });
    expect(await t.c.cancel('b1')).toBe(true);
    expect(t.finished[0]!.state).toBe('cancelled');
    expect(await t.report(NODE_A, { kind: 'interval', t: 1, phase: 'steady', ops: [] })).toEqual({ action: 'stop' });
    expect(await t.report(NODE_A, t.done(1))).toEqual({ action: 'exit' });
  });

  it('a silent worker is dropped and named; the run finishes with the others and is invalid', async () => {
    const t = setup({ workload: 'ycsb-c', recordCount: 100, load: false, durationSec: 1, warmupSec: 0 });
    await t.report(NODE_A, { kind: 'ready', primaries: [] });
    await t.report(NODE_B, { kind: 'ready', primaries: [] });
    await t.report(NODE_A, { kind: 'poll' });
    t.advance(WORKER_SILENCE_MS - 1000);
    await t.report(NODE_A, t.done(10));
    t.advance(2000);
    t.tick();
    await new Promise((r) => setTimeout(r, 10));
    expect(t.finished[0]!.state).toBe('succeeded');
    const v = (t.finished[0]!.result as { validity: { valid: boolean; reasons: { gate: string; message: string }[] } }).validity;
    expect(v.valid).toBe(false);
    expect(v.reasons[0]).toMatchObject({ gate: 'worker-lost' });
    expect(v.reasons[0]!.message).toContain('10.0.0.2');
  });

  it('failover under load: only the victim agent is told to kill it, at atSec into the steady phase; the result has the fault, the failover event and the write gap', async () => {
    const asked: number[] = [];
    const t = setup(
      { workload: 'ycsb-a', recordCount: 100, load: false, durationSec: 10, warmupSec: 1, fault: { kind: 'kill-primary', shard: 1, atSec: 3 } },
      { failoverAfter: async (_c, shard, since) => (asked.push(since), shard === 1 ? { promotedAtMs: 1_005_000, cause: 'process-crash', writeUnavailableMs: 2100 } : undefined) },
    );
    await t.report(NODE_A, { kind: 'ready', primaries: [] });
    const b = await t.report(NODE_B, { kind: 'ready', primaries: [] });
    const a = await t.report(NODE_A, { kind: 'poll' });
    expect(a).toMatchObject({ action: 'run' });
    expect((a as { fault?: unknown }).fault).toBeUndefined();
    const startAtMs = (b as { startAtMs: number }).startAtMs;
    expect(b).toMatchObject({ action: 'run', fault: { instanceId: '00000000-0000-4000-8000-0000000000f1', atMs: startAtMs + 4000 } });
    await t.report(NODE_B, { kind: 'fault', injectedAtMs: 1_003_000 });
    // writes every 10 ms slot except 1_003_000 .. 1_005_500 (250 slots)
    const steadyStartMs = 1_000_000;
    const slots = new Uint8Array(1000 / 8 * 2);
    for (let i = 0; i < 2000; i++) if (i < 300 || i >= 550) slots[i >> 3]! |= 1 << (i & 7);
    const writeSlots = { startMs: steadyStartMs, slotMs: 10, bits: Buffer.from(slots).toString('base64') };
    const done = (node: string): BenchmarkWorkerReport => ({ ...(t.done(10) as Extract<BenchmarkWorkerReport, { kind: 'done' }>), steadyStartMs, steadyEndMs: steadyStartMs + 10_000, writeSlots: node === NODE_A ? writeSlots : undefined, ops: [{ ...(t.done(10) as Extract<BenchmarkWorkerReport, { kind: 'done' }>).ops[0]!, errors: 7 }] });
    await t.report(NODE_A, done(NODE_A));
    await t.report(NODE_B, done(NODE_B));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([1_002_000]);
    const r = t.finished[0]!.result as { fault: Record<string, unknown>; validity: { reasons: { gate: string }[] } };
    expect(r.fault).toMatchObject({ shard: 1, injectedAtT: 3, failoverAtT: 5, failoverCause: 'process-crash', writeUnavailableMs: 2100, writeGapMs: 2500, writeGapStartT: 3, writeGapEndT: 5.5, errors: 14 });
    // failed operations while the shard had no primary are the point of this run, not an invalid one
    expect(r.validity.reasons.map((x) => x.gate)).not.toContain('errors');
  });

  it('failover under load: a fault that could not be injected, or no failover recorded, fails the fault gate', async () => {
    const t = setup({ workload: 'ycsb-a', recordCount: 100, load: false, durationSec: 10, warmupSec: 0, fault: { kind: 'kill-primary', shard: 1, atSec: 3 } }, { failoverAfter: async () => undefined });
    await t.report(NODE_A, { kind: 'ready', primaries: [] });
    await t.report(NODE_B, { kind: 'ready', primaries: [] });
    await t.report(NODE_A, { kind: 'poll' });
    await t.report(NODE_B, { kind: 'fault', injectedAtMs: 1_003_000 });
    await t.report(NODE_A, t.done(10));
    await t.report(NODE_B, t.done(10));
    await new Promise((r) => setTimeout(r, 20));
    const r = t.finished[0]!.result as { validity: { valid: boolean; reasons: { gate: string; message: string }[] } };
    expect(r.validity.valid).toBe(false);
    expect(r.validity.reasons.find((x) => x.gate === 'fault')!.message).toContain('no failover of shard 2');
  });
});
