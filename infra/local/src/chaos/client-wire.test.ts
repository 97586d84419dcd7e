import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { AppendOp } from './history';
import { mergeHistories, parseWorkerConfig, parseWorkerLine, STOP_LINE, workerLine, WorkerStream, type WorkerConfig } from './client-wire';

const op = (o: Partial<AppendOp> = {}): AppendOp => ({ client: 3, key: 'chaos:{1}', value: 30_000_001, kind: 'plain', status: 'ok', start: 5, end: 7, ...o });
const config: WorkerConfig = { seeds: ['10.0.97.11:7000'], login: { username: 'u', password: 'p' }, keys: ['chaos:{0}'], t0: 1, deadline: 2, clients: [{ client: 3, kind: 'plain' }] };

describe('the chaos client wire', () => {
  it('reads back what a worker writes: ready, ops (with their error word), done', () => {
    expect(parseWorkerLine(workerLine({ ready: true }))).toEqual({ ready: true });
    expect(parseWorkerLine(workerLine({ op: op({ status: 'unknown', error: 'timeout' }) }))).toEqual({ op: op({ status: 'unknown', error: 'timeout' }) });
    expect(parseWorkerLine(workerLine({ done: 0 }))).toEqual({ done: 0 });
  });

  it('takes nothing else for an op: stray text, a missing field, a wrong status or kind', () => {
    expect(parseWorkerLine('(node:12) Warning: something')).toBeNull();
    expect(parseWorkerLine('null')).toBeNull();
    expect(parseWorkerLine(JSON.stringify({ op: { ...op(), client: undefined } }))).toBeNull();
    expect(parseWorkerLine(JSON.stringify({ op: op({ status: 'maybe' as never }) }))).toBeNull();
    expect(parseWorkerLine(JSON.stringify({ op: op({ kind: 'sync' as never }) }))).toBeNull();
    expect(parseWorkerLine(JSON.stringify({ done: -1 }))).toBeNull();
  });

  it('checks a worker config', () => {
    expect(parseWorkerConfig(JSON.stringify(config))).toEqual(config);
    expect(() => parseWorkerConfig(JSON.stringify({ ...config, clients: [] }))).toThrow(/not a worker config/);
    expect(() => parseWorkerConfig(JSON.stringify({ ...config, login: undefined }))).toThrow(/not a worker config/);
  });

  it('a stream is whole once its done count matches the ops received', () => {
    const s = new WorkerStream();
    for (const l of [workerLine({ ready: true }), 'junk', workerLine({ op: op() }), workerLine({ op: op({ value: 30_000_002 }) })]) s.accept(l);
    expect([s.ready, s.ops.length, s.strayLines, s.whole]).toEqual([true, 2, 1, false]);
    s.accept(workerLine({ done: 3 }));
    expect(s.whole).toBe(false);
    const t = new WorkerStream();
    t.accept(workerLine({ op: op() }));
    t.accept(workerLine({ done: 1 }));
    expect(t.whole).toBe(true);
  });

  it('merges the streams in start order and leaves out an op from a client placed elsewhere', () => {
    const clients = [{ client: 1, host: 'client' }, { client: 3, host: 'n1' }];
    const { ops, misplaced } = mergeHistories([
      { host: 'client', ops: [op({ client: 1, value: 10_000_001, start: 9 })] },
      { host: 'n1', ops: [op({ start: 2 }), op({ client: 1, value: 10_000_002, start: 3 })] },
    ], clients);
    expect(ops.map((o) => [o.client, o.start])).toEqual([[3, 2], [1, 9]]);
    expect(misplaced).toBe(1);
  });
});

describe('the chaos client worker process', () => {
  it('runs its clients until told to stop and reports every op it recorded, then exits', async () => {
    // No cluster behind the seed: every append fails (no owner), which still makes a history.
    const worker = path.join(import.meta.dirname, 'client-worker.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', worker], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stream = new WorkerStream();
    const lines = createInterface({ input: child.stdout! });
    const readyOnce = new Promise<void>((resolve) => lines.on('line', (l) => { const m = stream.accept(l); if (m && 'ready' in m) resolve(); }));
    const closed = new Promise((resolve) => lines.once('close', resolve));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const t0 = Date.now();
    child.stdin!.write(`${JSON.stringify({ ...config, seeds: ['127.0.0.1:1'], t0, deadline: t0 + 20_000, clients: [{ client: 1, kind: 'plain' }, { client: 2, kind: 'wait' }] })}\n`);
    await readyOnce;
    await new Promise((r) => setTimeout(r, 200));
    child.stdin!.end(`${STOP_LINE}\n`);
    expect(await exited).toBe(0);
    await closed;
    expect(stream.whole).toBe(true);
    expect(stream.ops.length).toBeGreaterThan(2);
    expect(new Set(stream.ops.map((o) => o.client))).toEqual(new Set([1, 2]));
    expect(stream.ops.every((o) => o.status === 'failed' && o.error === 'no-owner' && o.start >= 0)).toBe(true);
  }, 20_000);

  it('stops by itself when its stdin ends (the checker is gone)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'client-worker.ts')], { stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const t0 = Date.now();
    child.stdin!.write(`${JSON.stringify({ ...config, seeds: ['127.0.0.1:1'], t0, deadline: t0 + 20_000 })}\n`);
    await new Promise((r) => setTimeout(r, 300));
    child.stdin!.end();
    expect(await exited).toBe(0);
  }, 20_000);
});
