import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express, { Router } from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import type { Scope } from '@strata/api';
import { mountOperation, mountRaw, useAuthenticators } from './operation-router';
import { parseUuid } from './validate';
import { errorHandler } from './problem.middleware';
import { notFound } from '../errors';

/**
 * The route table's router side over real HTTP (no database): scope and platform-admin checks come
 * from OPERATION_TABLE, body and query are parsed when the handler reads them, results go out with
 * the table's status.
 */
let server: Server;
let url: string;
const seen: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  // The caller's scopes and platform-admin flag come from headers here (the real app authenticates).
  useAuthenticators(app, { user: (req, _res, next) => {
    const scopes = (req.headers['x-scopes'] as string | undefined)?.split(',').filter(Boolean) as Scope[] | undefined;
    if (scopes) {
      req.principal = {
        organizationId: 'o', isPlatformAdmin: req.headers['x-platform-admin'] === 'yes', scopes,
        actor: { type: 'token', id: 't', name: 'test' },
      };
    }
    next();
  }, node: (_req, _res, next) => next() });
  const clusters = Router();
  mountOperation(clusters, '/v1/clusters', 'createCluster', async ({ body, res }) => {
    res.location('/v1/operations/op-1');
    seen.push(`create ${body.name}`);
    return { echo: body } as never;
  });
  mountOperation(clusters, '/v1/clusters', 'listClusterEvents', async (input) => {
    // A handler's own order of checks: the cluster (404) before the query (400).
    if (parseUuid(input.req.params.id, 'Cluster') !== '00000000-0000-4000-8000-000000000001') throw notFound('Cluster');
    return { items: [], nextCursor: null, limit: input.query.limit } as never;
  });
  mountRaw(clusters, '/v1/clusters', 'streamClusterMetrics', ({ res }) => void res.type('text/plain').send('raw answer'));
  app.use('/v1/clusters', clusters);
  const nodes = Router();
  mountOperation(nodes, '/v1/nodes', 'createJoinToken', async ({ body }) => ({ token: `ttl ${body.ttlSeconds ?? 'default'}`, expiresAt: 'x', controlPlaneCaSha256: null }));
  app.use('/v1/nodes', nodes);
  const session = Router();
  mountOperation(session, '/v1/session', 'deleteSession', async () => {
    seen.push('signed out');
  });
  app.use('/v1/session', session);
  app.use(errorHandler(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const call = async (method: string, path: string, opts: { scopes?: string; admin?: boolean; body?: unknown } = {}) => {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(opts.scopes !== undefined ? { 'x-scopes': opts.scopes } : {}), ...(opts.admin ? { 'x-platform-admin': 'yes' } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text.startsWith('{') ? text : JSON.stringify(text)) : null, headers: res.headers };
};

describe('mountOperation / mountRaw', () => {
  it('sends the result with the table\'s status, after the scope check and the body schema', async () => {
    const ok = await call('POST', '/v1/clusters', { scopes: 'clusters:write', body: { name: 'orders', shards: 1, replicasPerShard: 0 } });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('location')).toBe('/v1/operations/op-1');
    expect(ok.body.echo).toEqual({ name: 'orders', shards: 1, replicasPerShard: 0 });

    const forbidden = await call('POST', '/v1/clusters', { scopes: 'clusters:read', body: { name: 'orders', shards: 1, replicasPerShard: 0 } });
    expect(forbidden).toMatchObject({ status: 403, body: { code: 'forbidden' } });

    const bad = await call('POST', '/v1/clusters', { scopes: 'clusters:write', body: { name: 'orders', shards: 0, replicasPerShard: 0 } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed', errors: [{ field: 'shards' }] } });
    expect(seen.filter((s) => s.startsWith('create'))).toEqual(['create orders']);
  });

  it('parses the query only when the handler reads it: an unknown cluster is 404 even with a bad query', async () => {
    expect(await call('GET', '/v1/clusters/00000000-0000-4000-8000-000000000002/events?limit=0', { scopes: 'clusters:read' }))
      .toMatchObject({ status: 404, body: { code: 'not_found', detail: 'Cluster does not exist.' } });
    expect(await call('GET', '/v1/clusters/00000000-0000-4000-8000-000000000001/events?limit=0', { scopes: 'clusters:read' }))
      .toMatchObject({ status: 400, body: { code: 'validation_failed', errors: [{ field: 'limit' }] } });
    expect(await call('GET', '/v1/clusters/00000000-0000-4000-8000-000000000001/events?limit=7', { scopes: 'clusters:read' }))
      .toMatchObject({ status: 200, body: { limit: 7 } });
  });

  it('platform-admin operations need the scope and the platform admin flag', async () => {
    expect(await call('POST', '/v1/nodes/join-tokens', { scopes: 'admin', body: {} })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await call('POST', '/v1/nodes/join-tokens', { scopes: 'clusters:read', admin: true, body: {} })).toMatchObject({ status: 403 });
    expect(await call('POST', '/v1/nodes/join-tokens', { scopes: 'admin', admin: true, body: { ttlSeconds: 600 } })).toMatchObject({ status: 201, body: { token: 'ttl 600' } });
  });

  it('a raw handler writes its own answer; a 204 operation sends no body; auth none needs no principal', async () => {
    const raw = await call('GET', '/v1/clusters/00000000-0000-4000-8000-000000000001/metrics/stream', { scopes: 'clusters:read' });
    expect(raw).toMatchObject({ status: 200, body: 'raw answer' });
    expect((await call('GET', '/v1/clusters/00000000-0000-4000-8000-000000000001/metrics/stream')).status).toBe(403);
    const out = await call('DELETE', '/v1/session');
    expect(out).toMatchObject({ status: 204, body: null });
    expect(seen).toContain('signed out');
  });
});
