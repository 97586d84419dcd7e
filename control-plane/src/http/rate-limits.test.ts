import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiLimits } from '../config';
import { addressLimit, callerLimit } from './rate-limits';
import { errorHandler } from './problem.middleware';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? (server.close(() => r()), server.closeAllConnections()) : r())));

const limits = (over: Partial<ApiLimits>): ApiLimits => ({
  perToken: 0, perIp: 0, windowMs: 60_000, streamsPerUser: 20, streamMaxBufferBytes: 1 << 20, signInMaxFailures: 5, signInLockMs: 60_000, ...over,
});

/** /v1/things for the user named in x-user (as if authenticated), /v1/agent/report for agents, / for the console. */
async function serve(l: ApiLimits): Promise<string> {
  const app = express();
  app.use(addressLimit(l));
  const perCaller = callerLimit(l);
  const authenticated = (req: Request, res: express.Response, next: express.NextFunction) => {
    req.principal = { organizationId: 'o', isPlatformAdmin: false, tokenId: String(req.get('x-user')), scopes: [], actor: { type: 'token', id: null, name: 't' } };
    perCaller(req, res, next);
  };
  app.get('/v1/things', authenticated, (_req, res) => void res.json({ ok: true }));
  app.post('/v1/agent/report', (_req, res) => void res.json({ ok: true }));
  app.get('/', (_req, res) => void res.send('console'));
  app.use(errorHandler(pino({ level: 'silent' })));
  server = createServer(app);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('API rate limits', () => {
  it('answers 429 rate_limited with Retry-After once a token has used its window, other tokens unaffected', async () => {
    const url = await serve(limits({ perToken: 3, windowMs: 30_000 }));
    const get = (user: string) => fetch(`${url}/v1/things`, { headers: { 'x-user': user } });
    for (let i = 0; i < 3; i++) expect((await get('a')).status).toBe(200);
    const over = await get('a');
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(30);
    expect(over.headers.get('ratelimit-policy')).toContain('q=3');
    const body = (await over.json()) as { code: string; detail: string };
    expect(body.code).toBe('rate_limited');
    expect(body.detail).toMatch(/More than 3 requests in 30 s/);
    expect((await get('b')).status).toBe(200);
  });

  it('counts every API request of an address but not the agents\' or the console\'s', async () => {
    const url = await serve(limits({ perIp: 2, windowMs: 30_000 }));
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/v1/agent/report`, { method: 'POST' })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/v1/things`, { headers: { 'x-user': 'a' } })).status).toBe(200);
    expect((await fetch(`${url}/v1/things`, { headers: { 'x-user': 'b' } })).status).toBe(200);
    const over = await fetch(`${url}/v1/things`, { headers: { 'x-user': 'c' } });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { code: string }).code).toBe('rate_limited');
  });

  it('a new window lets the caller in again; 0 turns a limit off', async () => {
    const url = await serve(limits({ perToken: 1, windowMs: 300 }));
    const get = () => fetch(`${url}/v1/things`, { headers: { 'x-user': 'a' } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    await new Promise((r) => setTimeout(r, 350));
    expect((await get()).status).toBe(200);
    server!.close();
    server!.closeAllConnections();
    const open = await serve(limits({ perToken: 0, perIp: 0 }));
    for (let i = 0; i < 20; i++) expect((await fetch(`${open}/v1/things`, { headers: { 'x-user': 'a' } })).status).toBe(200);
  });
});
