import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient } from './control-plane.client';

/** A fake control plane that records what it was sent. */
async function fakeControlPlane() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url?.split('?')[0]}${body ? ` ${body}` : ''}`);
      if (req.url?.startsWith('/v1/agent/tasks')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"task":null}');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, server, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => {})));
});

const report = (memoryMb: number) => ({ agentVersion: 't', memoryMb, instances: [] });
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

function recordingLog() {
  const lines: string[] = [];
  return { lines, log: { warn: (_o: object, msg: string) => lines.push(`warn ${msg}`), info: (_o: object, msg: string) => lines.push(`info ${msg}`) } };
}

describe('ControlPlaneClient with several control planes', () => {
  it('sends status reports to every control plane and metrics only to the current one; a carried report goes to the others on its own route', async () => {
    const a = await fakeControlPlane();
    const b = await fakeControlPlane();
    open.push(a, b);
    const c = new ControlPlaneClient([a.url, b.url], 'snc_x');
    await c.reportStatus(report(1));
    await until(() => b.seen.length === 1);
    expect(a.seen).toEqual(['POST /v1/agent/status {"agentVersion":"t","memoryMb":1,"instances":[]}']);
    expect(b.seen).toEqual(a.seen);
    await c.pushMetrics({ host: [], instances: [], status: report(2) });
    await until(() => b.seen.length === 2);
    expect(a.seen[1]).toMatch(/^POST \/v1\/agent\/metrics /);
    expect(b.seen[1]).toBe('POST /v1/agent/status {"agentVersion":"t","memoryMb":2,"instances":[]}');
    await c.pushMetrics({ host: [], instances: [] });
    await c.leaseTask(0, new AbortController().signal);
    expect(a.seen).toHaveLength(4);
    expect(b.seen).toHaveLength(2);
  });

  it('moves to the next control plane when the current one cannot be reached, sends the request there at once, and says so once', async () => {
    const a = await fakeControlPlane();
    const b = await fakeControlPlane();
    open.push(b);
    const { lines, log } = recordingLog();
    const c = new ControlPlaneClient([a.url, b.url], 'snc_x', { log });
    await c.leaseTask(0, new AbortController().signal);
    expect(c.currentUrl).toBe(a.url);
    await a.close(); // like a kill -9: connections refused
    expect(await c.leaseTask(0, new AbortController().signal)).toBeNull();
    expect(c.currentUrl).toBe(b.url);
    for (let i = 0; i < 5; i++) {
      await c.heartbeat('00000000-0000-4000-8000-000000000009');
      await c.reportStatus(report(i)); // also tried on the lost one, on the side
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(b.seen.filter((l) => l.startsWith('GET /v1/agent/tasks'))).toHaveLength(1);
    expect(b.seen.filter((l) => l.includes('/heartbeat'))).toHaveLength(5);
    expect(lines).toEqual(['warn control plane unreachable; using the next one']);
  });

  it('goes round the list: back to the first one when the second is lost, logging its return once', async () => {
    const a = await fakeControlPlane();
    let b = await fakeControlPlane();
    const { lines, log } = recordingLog();
    const c = new ControlPlaneClient([b.url, a.url], 'snc_x', { log });
    open.push(a);
    const bUrl = b.url;
    await b.close();
    await c.reportStatus(report(1)); // b refuses: a takes it
    expect(c.currentUrl).toBe(a.url);
    expect(a.seen).toHaveLength(1);
    // b comes back on its port: the side reports reach it again, and that is said once.
    b = await (async () => {
      const s = await fakeControlPlane();
      await s.close();
      const again = http.createServer((req, res) => { req.resume(); req.on('end', () => { seen.push(req.url!); res.writeHead(204).end(); }); });
      const seen: string[] = [];
      await new Promise<void>((r) => again.listen(Number(new URL(bUrl).port), '127.0.0.1', r));
      const h = { url: bUrl, seen, server: again, close: () => new Promise<void>((r) => { again.closeAllConnections(); again.close(() => r()); }) };
      open.push(h);
      return h;
    })();
    await c.reportStatus(report(2));
    await c.reportStatus(report(3));
    await until(() => b.seen.length === 2);
    expect(lines).toEqual(['warn control plane unreachable; using the next one', 'info control plane reachable again']);
    // Now a is lost: requests go round to b.
    await open.find((s) => (s as { url?: string }).url === a.url)!.close();
    await c.reportStatus(report(4));
    expect(c.currentUrl).toBe(bUrl);
    expect(lines.at(-1)).toBe('warn control plane unreachable; using the next one');
  });

  it('fails a request only when no control plane can be reached', async () => {
    const a = await fakeControlPlane();
    const b = await fakeControlPlane();
    await a.close();
    await b.close();
    const c = new ControlPlaneClient([a.url, b.url], 'snc_x');
    await expect(c.reportStatus(report(1))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
