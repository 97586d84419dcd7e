import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStreams, type EventStream } from './event-streams';
import { errorHandler } from './problem.middleware';

const log = pino({ level: 'silent' });
let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? (server.close(() => r()), server.closeAllConnections()) : r())));

/** An app whose GET /stream?user=… opens a stream for that user and hands it to `opened`. */
async function serve(streams: EventStreams, opened: (s: EventStream) => void): Promise<string> {
  const app = express();
  app.get('/stream', (req, res, next) => {
    (req as Request).principal = { organizationId: 'o', isPlatformAdmin: false, userId: String(req.query.user), scopes: [], actor: { type: 'user', id: null, name: 'u' } };
    try {
      opened(streams.start(req, res, { retryMs: 1000 }));
    } catch (err) {
      next(err);
    }
  });
  app.use(errorHandler(log));
  server = createServer(app);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('EventStreams', () => {
  it('caps the streams one user holds open, and frees a place when one closes', async () => {
    const streams = new EventStreams({ limits: { perPrincipal: 2, maxBufferedBytes: 1 << 20 }, log });
    const open: EventStream[] = [];
    const url = await serve(streams, (s) => open.push(s));
    const a1 = new AbortController();
    const a2 = new AbortController();
    const r1 = await fetch(`${url}/stream?user=alice`, { signal: a1.signal });
    const r2 = await fetch(`${url}/stream?user=alice`, { signal: a2.signal });
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const third = await fetch(`${url}/stream?user=alice`);
    expect(third.status).toBe(429);
    expect(third.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await third.json()) as { code: string }).code).toBe('too_many_streams');
    // Another user is not affected.
    const bob = new AbortController();
    expect((await fetch(`${url}/stream?user=bob`, { signal: bob.signal })).status).toBe(200);
    expect(streams.size).toBe(3);
    a1.abort();
    await expect.poll(() => streams.size).toBe(2);
    const again = new AbortController();
    expect((await fetch(`${url}/stream?user=alice`, { signal: again.signal })).status).toBe(200);
    for (const c of [a2, bob, again]) c.abort();
    await expect.poll(() => streams.size).toBe(0);
  });

  it('drops a reader that stops reading instead of buffering for it, and keeps one that reads', async () => {
    const streams = new EventStreams({ limits: { perPrincipal: 10, maxBufferedBytes: 256 * 1024 }, log });
    let stream: EventStream | undefined;
    const url = await serve(streams, (s) => (stream = s));
    const { port } = new URL(url);
    // A client that sends its request and then never reads.
    const stalled = net.connect(Number(port), '127.0.0.1');
    stalled.write('GET /stream?user=slow HTTP/1.1\r\nHost: x\r\n\r\n');
    stalled.pause();
    await expect.poll(() => stream).toBeDefined();
    const frame = `event: sample\ndata: ${JSON.stringify({ pad: 'x'.repeat(16 * 1024) })}\n\n`;
    let written = 0;
    while (stream!.write(frame)) {
      written += frame.length;
      if (written > 256 * 1024 * 1024) break;
      if (written % (1024 * 1024) < frame.length) await new Promise((r) => setImmediate(r));
    }
    expect(stream!.closed).toBe(true);
    expect(streams.dropped).toBe(1);
    // Dropped after the kernel's socket buffers filled plus at most the bound, not after hundreds of MB.
    expect(written).toBeLessThan(64 * 1024 * 1024);
    await expect.poll(() => streams.size).toBe(0);
    stalled.destroy();

    // A reader that keeps up gets every frame and stays open.
    let fast: EventStream | undefined;
    server!.close();
    server!.closeAllConnections();
    const url2 = await serve(streams, (s) => (fast = s));
    const ac = new AbortController();
    const res = await fetch(`${url2}/stream?user=fast`, { signal: ac.signal });
    const reader = res.body!.getReader();
    let received = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += Buffer.from(value).toString();
      }
    })().catch(() => {});
    await expect.poll(() => fast).toBeDefined();
    for (let i = 0; i < 200; i++) {
      expect(fast!.send('n', { i })).toBe(true);
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await expect.poll(() => received.split('event: n').length - 1).toBe(200);
    expect(streams.dropped).toBe(1);
    ac.abort();
    await reading;
  });
});
