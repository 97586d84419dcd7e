import { describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import { multipartUpload, partLayout, type PartTarget } from './multipart-upload';

/** A target that records what it got; `failPart` fails that part number; `streams`: it takes parts as streams (`failStream`: that one breaks). */
function target(o: { failPart?: number; delayMs?: number; streams?: boolean; failStream?: number } = {}) {
  const got = {
    whole: null as Buffer | null, parts: new Map<number, Buffer>(), completed: null as number[] | null, aborted: [] as string[], started: 0, maxInFlight: 0,
    streamed: [] as number[], cut: [] as number[],
  };
  let inFlight = 0;
  const t: PartTarget = {
    putObject: async (body) => { got.whole = Buffer.from(body); },
    start: async () => { got.started++; return 'u1'; },
    putPart: async (_id, n, body) => {
      inFlight++;
      got.maxInFlight = Math.max(got.maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, o.delayMs ?? 1));
      inFlight--;
      if (n === o.failPart) throw new Error(`part ${n} refused`);
      got.parts.set(n, Buffer.from(body));
      return `etag-${n}`;
    },
    complete: async (_id, parts) => { got.completed = parts.map((p) => p.partNumber); },
    abort: async (id) => { got.aborted.push(id); },
  };
  if (o.streams) {
    t.streamPart = (_id: string, n: number, body: Readable, bytes: number, signal: AbortSignal) => new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let have = 0;
      signal.addEventListener('abort', () => { got.cut.push(n); reject(new Error('stopped')); }, { once: true });
      body.on('data', (c: Buffer) => {
        chunks.push(Buffer.from(c));
        have += c.length;
        if (n === o.failStream && have > bytes / 2) return reject(new Error('connection reset'));
        if (have === bytes) {
          got.parts.set(n, Buffer.concat(chunks));
          got.streamed.push(n);
          resolve(`etag-${n}`);
        }
      });
    });
  }
  return { t, got };
}

/** `n` bytes (a known pattern) in chunks of `size`. */
async function* bytes(n: number, size: number, failAt?: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < n; at += size) {
    if (failAt !== undefined && at >= failAt) throw new Error('source broke');
    yield Buffer.from(Array.from({ length: Math.min(size, n - at) }, (_, i) => (at + i) % 251));
  }
}
const expected = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('multipartUpload', () => {
  it('sends a stream that fits in one part as one object', async () => {
    const { t, got } = target();
    expect(await multipartUpload(bytes(1000, 300), t, { partBytes: 4096, queue: 3 })).toBe(1000);
    expect(got.whole).toEqual(expected(1000));
    expect(got.started).toBe(0);
  });

  it('cuts parts of exactly partBytes across chunk edges, the last one shorter, and completes them in order', async () => {
    const { t, got } = target();
    const seen: number[] = [];
    expect(await multipartUpload(bytes(10_000, 700), t, { partBytes: 4096, queue: 3, onChunk: (c) => seen.push(c.length) })).toBe(10_000);
    expect([...got.parts.keys()].sort()).toEqual([1, 2, 3]);
    expect(got.parts.get(1)!.length).toBe(4096);
    expect(got.parts.get(2)!.length).toBe(4096);
    expect(Buffer.concat([1, 2, 3].map((n) => got.parts.get(n)!))).toEqual(expected(10_000));
    expect(got.completed).toEqual([1, 2, 3]);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it('holds at most `queue` parts: the one filling and queue - 1 in flight; a buffer is filled again only once its part was sent', async () => {
    // The fake target reads each body only when its (slow) request ends, as a real one may.
    const { t, got } = target({ delayMs: 20 });
    await multipartUpload(bytes(20 * 1024 + 100, 512), t, { partBytes: 1024, queue: 3 });
    expect(got.parts.size).toBe(21);
    expect(got.maxInFlight).toBe(2);
    expect(Buffer.concat(Array.from({ length: 21 }, (_, i) => got.parts.get(i + 1)!))).toEqual(expected(20 * 1024 + 100));
  });

  it('aborts the upload when a part fails, and throws its error', async () => {
    const { t, got } = target({ failPart: 2 });
    await expect(multipartUpload(bytes(10_000, 700), t, { partBytes: 2048, queue: 3 })).rejects.toThrow('part 2 refused');
    expect(got.aborted).toEqual(['u1']);
    expect(got.completed).toBeNull();
  });

  it('aborts the upload when the source breaks, and throws its error', async () => {
    const { t, got } = target();
    await expect(multipartUpload(bytes(10_000, 700, 5000), t, { partBytes: 2048, queue: 3 })).rejects.toThrow('source broke');
    expect(got.aborted).toEqual(['u1']);
    expect(got.completed).toBeNull();
  });

  it('stops and aborts when its signal is aborted, and an onChunk that throws fails it too', async () => {
    const stop = new AbortController();
    const a = target();
    await expect(multipartUpload(bytes(10_000, 700), a.t, { partBytes: 2048, queue: 3, signal: stop.signal, onChunk: () => { if (a.got.started) stop.abort(); } })).rejects.toThrow('stopped');
    expect(a.got.aborted).toEqual(['u1']);
    const b = target();
    await expect(multipartUpload(bytes(10_000, 700), b.t, { partBytes: 2048, queue: 3, onChunk: () => { if (b.got.started) throw new Error('bad header'); } })).rejects.toThrow('bad header');
    expect(b.got.aborted).toEqual(['u1']);
  });

  it('sizes parts from the expected size so the last is small, streams each as it fills, and sends the last whole', async () => {
    expect(partLayout(10 * 1024 * 1024)).toBe(9961472);
    expect(partLayout(1000 * 1024 * 1024)).toBe(5 * 1024 * 1024);
    expect(partLayout(100 * 1024 ** 3)).toBe(Math.ceil((100 * 1024 ** 3) / 9000));
    expect(partLayout(1024, 1024)).toBe(1024);
    const { t, got } = target({ streams: true });
    expect(await multipartUpload(bytes(10_000, 700), t, { partBytes: 1024, queue: 3, expectedBytes: 10_000 })).toBe(10_000);
    // 95 % of 10,000 in 9 parts of 1055 bytes, streamed; the last 505 bytes sent once the stream ended.
    expect(got.streamed).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(got.parts.get(1)!.length).toBe(1055);
    expect(got.parts.get(10)!.length).toBe(505);
    expect(got.cut).toEqual([10]);
    expect(Buffer.concat(Array.from({ length: 10 }, (_, i) => got.parts.get(i + 1)!))).toEqual(expected(10_000));
    expect(got.completed).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('sends whole a streamed part that broke, and an object smaller than expected in one cut-short part', async () => {
    const broken = target({ streams: true, failStream: 2 });
    await multipartUpload(bytes(10_000, 700), broken.t, { partBytes: 1024, queue: 3, expectedBytes: 10_000 });
    expect(broken.got.streamed).not.toContain(2);
    expect(Buffer.concat(Array.from({ length: 10 }, (_, i) => broken.got.parts.get(i + 1)!))).toEqual(expected(10_000));
    const small = target({ streams: true });
    expect(await multipartUpload(bytes(600, 100), small.t, { partBytes: 1024, queue: 3, expectedBytes: 10_000 })).toBe(600);
    expect(small.got.cut).toEqual([1]);
    expect(small.got.parts.get(1)).toEqual(expected(600));
    expect(small.got.completed).toEqual([1]);
  });
});
