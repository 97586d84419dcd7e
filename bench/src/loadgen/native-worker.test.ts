import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeHistogram, newHistogram, recordUs, summarize } from '../histogram';
import { Rng } from '../random';
import { commandBytes, sequenceLines, workloadLetter, type SequenceCase, type YcsbVectors } from '../spec/ycsb-spec';
import { NATIVE_WORKER_BINARY, findNativeWorker, histogramFromPairs, toFromWorker } from './native-worker';

/** The built binary (bench/native/build/ycsb-worker); the tests fail, naming the build command, when it is missing. */
function nativeBinary(): string {
  const found = findNativeWorker();
  if ('missing' in found) throw new Error(found.missing);
  return found.binary;
}

const VECTORS_FILE = fileURLToPath(new URL('../../spec/ycsb-vectors.json', import.meta.url));
const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

/** Runs the native worker binary with args and stdin, returns stdout. */
async function runBinary(args: string[], input = ''): Promise<Buffer> {
  const bin = nativeBinary();
  return new Promise((resolve, reject) => {
    const child = execFile(bin, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    child.stdin!.on('error', () => {}); // the dump modes exit without reading stdin
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
    expect((await runBinary(['-H'], '')).toString().trim()).toBe('[]');
  });

  it('a missing binary is named with the command that builds it', () => {
    expect(findNativeWorker('/nonexistent/ycsb-worker')).toEqual({ missing: 'the native worker is not built (no executable /nonexistent/ycsb-worker): run npm run build:native' });
  });

  it("histogram: its buckets' (lowest value, count) pairs re-recorded into hdr-histogram-js equal recording every latency directly", async () => {
    const rng = new Rng(42);
    // log-uniform from 0.1 us to 100 s (clamping both ends), plus bucket edges and rounding edges
    const ns: number[] = [0, 1, 499, 500, 1499, 1500, 2500, 2047_499, 2047_500, 2048_000, 4095_500, 60_000_000_000, 60_000_499_999, 99_000_000_000];
    for (let i = 0; i < 50_000; i++) ns.push(Math.floor(Math.exp(Math.log(100) + rng.nextDouble() * Math.log(1e9))));
    const pairs = JSON.parse((await runBinary(['-H'], ns.join('\n') + '\n')).toString()) as number[];
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

  describe('reproduces the golden vectors the TypeScript implementation generates (bench/spec/ycsb-vectors.json)', () => {
    const vectors = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as YcsbVectors;
    const caseArgs = (c: SequenceCase) => ['-w', workloadLetter(c.workload), '-r', String(c.records), '-S', String(c.seed), '-i', String(c.workerIndex), '-n', String(c.workerCount)];
    const name = (c: SequenceCase) => `${c.workload}, ${c.records} records, seed ${c.seed}, worker ${c.workerIndex} of ${c.workerCount}`;

    it('keys and their slots (-k)', async () => {
      const out = (await runBinary(['-k'], vectors.keys.map((l) => l.split(' ')[0]).join('\n') + '\n')).toString('latin1');
      expect(out.trim().split('\n')).toEqual(vectors.keys);
    });

    it.each(vectors.sequences.map((v) => [name(v), v] as const))('op sequence (-D): %s', async (_, v) => {
      const out = (await runBinary([...caseArgs(v), '-D', String(v.ops)])).toString('latin1');
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(v.ops);
      expect(lines.slice(0, v.first.length)).toEqual(v.first);
      if (sha256(out) !== v.sha256) {
        // name the first op that differs from the TypeScript's
        const ts = sequenceLines(v);
        const i = lines.findIndex((l, j) => l !== ts[j]);
        expect({ op: i, native: lines[i] }).toEqual({ op: i, native: ts[i] });
      }
      expect(sha256(out)).toBe(v.sha256);
      if (v.workload === 'ycsb-d' && v.workerCount === 3) {
        expect(lines.some((l) => l.startsWith(`insert ${v.records + v.workerIndex} `))).toBe(true);
        // reads reach this worker's acknowledged inserts (100001, 100004, ...), never another worker's keys
        const readInserts = lines.filter((l) => l.startsWith('read ')).map((l) => Number(l.split(' ')[1])).filter((k) => k >= v.records);
        expect(readInserts.length).toBeGreaterThan(0);
        expect(readInserts.every((k) => (k - v.records - v.workerIndex) % v.workerCount === 0)).toBe(true);
      }
    });

    it.each(vectors.commands.map((v) => [name(v), v] as const))('command bytes (-C): %s', async (_, v) => {
      const out = await runBinary([...caseArgs(v), '-C', String(v.ops)]);
      expect(out.toString('latin1').slice(0, v.first.length)).toBe(v.first);
      if (sha256(out) !== v.sha256) {
        const ts = commandBytes(v).toString('latin1');
        const native = out.toString('latin1');
        let i = 0;
        while (i < ts.length && ts[i] === native[i]) i++;
        expect(JSON.stringify(native.slice(Math.max(0, i - 60), i + 60))).toBe(JSON.stringify(ts.slice(Math.max(0, i - 60), i + 60)));
      }
      expect(sha256(out)).toBe(v.sha256);
    });
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
