import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlaneClient, ControlPlaneError, ENDPOINTS_QUIET_MS } from './control-plane.client';

const requests: string[] = [];
let list = { host: '127.0.0.200', items: [] as { clusterId: string; port: number; targets: string[] }[] };
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      if (req.url === '/v1/agent/endpoints') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
      if (req.url === '/v1/agent/metrics') return void res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"code":"validation_failed","detail":"bad batch"}');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('ControlPlaneClient', () => {
  it('sends the credential over a kept-alive connection and turns problem answers into errors with the status', async () => {
    const c = new ControlPlaneClient(url, 'snc_x');
    await c.reportStatus({ agentVersion: 't', memoryMb: 1, instances: [] });
    expect(requests.at(-1)).toBe('POST /v1/agent/status Bearer snc_x');
    const err = await c.pushMetrics({ host: [], instances: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ControlPlaneError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('reads the endpoint list again after a change on this node, otherwise every few seconds', async () => {
    let now = 1_000_000;
    const c = new ControlPlaneClient(url, 'snc_x', { now: () => now });
    const reads = () => requests.filter((r) => r.startsWith('GET /v1/agent/endpoints')).length;
    const start = reads();
    expect((await c.endpoints()).host).toBe('127.0.0.200');
    now += 1000;
    await c.endpoints();
    expect(reads() - start).toBe(1); // nothing changed: the list read a second ago stands
    // A task finished here (an instance placed, removed or promoted): read at once.
    list = { ...list, items: [{ clusterId: '00000000-0000-4000-8000-000000000001', port: 6400, targets: ['127.0.0.1:7000'] }] };
    now += 1;
    await c.complete('00000000-0000-4000-8000-000000000009', { state: 'succeeded' } as never);
    now += 1;
    expect((await c.endpoints()).items).toHaveLength(1);
    expect(reads() - start).toBe(2);
    // A status report on its own route follows a change too.
    now += 1;
    await c.reportStatus({ agentVersion: 't', memoryMb: 1, instances: [] });
    now += 1;
    await c.endpoints();
    expect(reads() - start).toBe(3);
    // Quiet: again only once the quiet period has passed.
    now += ENDPOINTS_QUIET_MS - 1;
    await c.endpoints();
    expect(reads() - start).toBe(3);
    now += 1;
    await c.endpoints();
    expect(reads() - start).toBe(4);
  });
});
