import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHistogram, newHistogram, recordUs, summarize } from '../histogram';
import { Rng } from '../random';
import { YCSB_MIXES, YcsbOpSource, type Op } from '../workloads';
import { NATIVE_WORKER_BINARY, findNativeWorker, histogramFromPairs, toFromWorker } from './native-worker';

/** The built binary (bench/native/build/ycsb-worker); the tests fail, naming the build command, when it is missing. */
function nativeBinary(): string {
  const found = findNativeWorker();
  if ('missing' in found) throw new Error(found.missing);
  return found.binary;
}

/** Runs the native worker binary with args and stdin, returns stdout. */
async function runBinary(args: string[], input = ''): Promise<string> {
  const bin = nativeBinary();
  return new Promise((resolve, reject) => {
    const child = execFile(bin, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    child.stdin!.end(input);
  });
}

describe('native load generator worker (bench/native/ycsb-worker.c)', () => {
  it('is built (npm run build:native) and not older than its sources', async () => {
    const bin = nativeBinary();
    const dir = path.dirname(path.dirname(NATIVE_WORKER_BINARY));
    const sources = readdirSync(dir).filter((f) => /\.[ch]$/.test(f));
    expect(sources).toContain('ycsb-worker.c');
    const stale = sources.filter((f) => statSync(path.join(dir, f)).mtimeMs > statSync(bin).mtimeMs);
    expect(stale, `${stale.join(', ')} changed since the build: run npm run build:native`).toEqual([]);
    expect((await runBinary(['-H'], '')).trim()).toBe('[]');
  });

  it('a missing binary is named with the command that builds it', () => {
    expect(findNativeWorker('/nonexistent/ycsb-worker')).toEqual({ missing: 'the native worker is not built (no executable /nonexistent/ycsb-worker): run npm run build:native' });
  });

  it("histogram: its buckets' (lowest value, count) pairs re-recorded into hdr-histogram-js equal recording every latency directly", async () => {
    const rng = new Rng(42);
    // log-uniform from 0.1 us to 100 s (clamping both ends), plus bucket edges and rounding edges
    const ns: number[] = [0, 1, 499, 500, 1499, 1500, 2500, 2047_499, 2047_500, 2048_000, 4095_500, 60_000_000_000, 60_000_499_999, 99_000_000_000];
    for (let i = 0; i < 50_000; i++) ns.push(Math.floor(Math.exp(Math.log(100) + rng.nextDouble() * Math.log(1e9))));
    const pairs = JSON.parse(await runBinary(['-H'], ns.join('\n') + '\n')) as number[];
    const native = histogramFromPairs(pairs);
    const direct = newHistogram();
    for (const v of ns) recordUs(direct, v / 1000);
    expect(native.totalCount).toBe(ns.length);
    expect(summarize(native)).toEqual(summarize(direct));
    for (const p of [0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100]) expect(native.getValueAtPercentile(p)).toBe(direct.getValueAtPercentile(p));
    expect(encodeHistogram(native)).toBe(encodeHistogram(direct));
    // and one value off would show: the comparison can fail
    recordUs(direct, 1234);
    expect(encodeHistogram(native)).not.toBe(encodeHistogram(direct));
  });

  it.each(['a', 'b', 'c', 'd', 'f'] as const)('workload %s: the op sequence (kind, key, field) equals the TS runner\'s for the same seed and worker', async (w) => {
    const N = 20_000;
    const records = 100_000;
    const out = await runBinary(['-w', w, '-r', String(records), '-S', '7', '-i', '1', '-n', '3', '-D', String(N)]);
    // ops-runner: seed * 7919 + workerIndex; inserts from recordCount + workerIndex, stride workerCount
    const src = new YcsbOpSource(YCSB_MIXES[`ycsb-${w}`], { recordCount: records, seed: 7 * 7919 + 1, insertIndex: 1, insertStride: 3 });
    const op: Op = { kind: 'read', keynum: 0, field: 0 };
    const expected: string[] = [];
    let pending = -1; // the dump acknowledges each insert when the next one is issued
    for (let i = 0; i < N; i++) {
      src.next(op);
      expected.push(`${op.kind} ${op.keynum} ${op.field}`);
      if (op.kind === 'insert') {
        if (pending >= 0) src.acknowledge!(pending);
        pending = op.keynum;
      }
    }
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(N);
    expect(lines).toEqual(expected);
    if (w === 'd') {
      expect(lines.some((l) => l.startsWith('insert 100001 '))).toBe(true);
      // reads reach this worker's acknowledged inserts (100001, 100004, ...), never another worker's keys
      const readInserts = lines.filter((l) => l.startsWith('read ')).map((l) => Number(l.split(' ')[1])).filter((k) => k >= records);
      expect(readInserts.length).toBeGreaterThan(0);
      expect(readInserts.every((k) => (k - records - 1) % 3 === 0)).toBe(true);
    }
    if (w === 'f') expect(lines.some((l) => l.startsWith('rmw '))).toBe(true);
  });

  it('turns its lines into the worker threads\' messages', () => {
    const done = toFromWorker({ type: 'done', ops: [{ op: 'read', count: 3, errors: 0, misses: 1, h: [5, 2, 2048, 1] }], endpointCommands: { 'h:1': 3 }, steadyStartMs: 1, steadyEndMs: 2, cpu: 0.5, redirects: 4 });
    expect(done).toMatchObject({ type: 'done', elu: 0.5, redirects: 4, endpointCommands: { 'h:1': 3 } });
    if (done.type !== 'done') throw new Error('not done');
    expect(done.ops[0]).toMatchObject({ op: 'read', count: 3, misses: 1 });
    const h = histogramFromPairs([5, 2, 2048, 1]);
    expect(done.ops[0]!.service).toBe(encodeHistogram(h));
    expect(h.getValueAtPercentile(50)).toBe(5);
    expect(toFromWorker({ type: 'error', message: 'AUTH failed' })).toEqual({ type: 'error', message: 'native load generator worker: AUTH failed' });
  });
});
