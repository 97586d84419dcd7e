import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { AgentMetricsBatch, AgentStatusReport } from '@strata/api';
import { PerTurnGate, agentFastLane } from './agent-fast-lane';
import { hashToken } from '../crypto/tokens';
import type { NodeStore } from '../stores/node.store';
import { BODY_LIMIT } from './app';

const CREDENTIAL = 'snc_fast_lane_test_credential';
const pushes: { nodeId: string; batch: AgentMetricsBatch }[] = [];
const reports: { nodeId: string; report: AgentStatusReport }[] = [];
const observed: string[] = [];
const endpointReads: string[] = [];
const ENDPOINTS = { host: '127.0.0.200', items: [{ clusterId: '00000000-0000-4000-8000-000000000002', port: 6400, targets: ['127.0.0.1:7000'] }] };
let url = '';
let server: http.Server;

beforeAll(async () => {
  const nodes = { byCredential: async (hash: string) => (hash === hashToken(CREDENTIAL) ? { id: 'node-1' } : null) } as unknown as NodeStore;
  const app: http.RequestListener = (_req, res) => void res.writeHead(299, { 'content-type': 'text/plain' }).end('express');
  server = http.createServer(agentFastLane(app, {
    nodes, log: pino({ level: 'silent' }),
    observe: (method, route, status) => void observed.push(`${method} ${route} ${status}`),
    handlers: {
      pushAgentMetrics: async (nodeId, batch) => {
        pushes.push({ nodeId, batch });
        return { accepted: batch.instances.length, rejected: 0 };
      },
      reportAgentStatus: async (nodeId, report) => void reports.push({ nodeId, report }),
      getAgentEndpoints: async (nodeId) => {
        endpointReads.push(nodeId);
        return ENDPOINTS;
      },
    },
  }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CREDENTIAL}`, ...headers }, body });
const status: AgentStatusReport = { agentVersion: 't', memoryMb: 1024, instances: [] };

describe('agent fast lane', () => {
  it('serves a metrics push with its carried status report to the handler, with the node from the credential', async () => {
    const res = await post('/v1/agent/metrics', JSON.stringify({ host: [], instances: [], status }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 0, rejected: 0 });
    expect(pushes.at(-1)).toEqual({ nodeId: 'node-1', batch: { host: [], instances: [], status } });
    expect(observed.at(-1)).toBe('POST /v1/agent/metrics 200');
  });

  it('answers a status report 204', async () => {
    const res = await post('/v1/agent/status', JSON.stringify(status));
    expect(res.status).toBe(204);
    expect(reports.at(-1)).toEqual({ nodeId: 'node-1', report: status });
  });

  it('refuses a missing or unknown credential with 401 problem+json, before the handler', async () => {
    const before = pushes.length;
    for (const auth of [{ authorization: '' }, { authorization: 'Bearer nope' }, { authorization: 'Basic x' }]) {
      const res = await post('/v1/agent/metrics', '{"host":[],"instances":[]}', auth);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
    }
    expect(pushes.length).toBe(before);
  });

  it('refuses bad bodies with a 400 naming the field, and malformed JSON', async () => {
    const bad = await post('/v1/agent/metrics', '{"host":[{"ts":1,"cpu":7}],"instances":[]}');
    expect(bad.status).toBe(400);
    const p = (await bad.json()) as { code: string; errors: { field: string }[] };
    expect(p.code).toBe('validation_failed');
    expect(p.errors.map((e) => e.field)).toContain('host.0.cpu');
    const nul = await post('/v1/agent/status', JSON.stringify({ ...status, agentVersion: 'a\u0000b' }));
    expect(nul.status).toBe(400);
    expect(JSON.stringify(await nul.json())).toContain('agentVersion');
    const broken = await post('/v1/agent/metrics', '{"host":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: string }).detail).toMatch(/not valid JSON/);
    const text = await post('/v1/agent/status', JSON.stringify(status), { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
  });

  it('refuses a body over the limit with 413 and stores nothing', async () => {
    const before = pushes.length;
    const res = await post('/v1/agent/metrics', JSON.stringify({ host: [], instances: [], pad: 'x'.repeat(BODY_LIMIT) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('payload_too_large');
    expect(pushes.length).toBe(before);
  });

  it('serves the endpoint list (GET, no body) to the node, the same answer each time, and refuses an unknown credential', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${url}/v1/agent/endpoints`, { headers: { authorization: `Bearer ${CREDENTIAL}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(ENDPOINTS);
    }
    expect(endpointReads).toEqual(['node-1', 'node-1']);
    expect(observed.at(-1)).toBe('GET /v1/agent/endpoints 200');
    const res = await fetch(`${url}/v1/agent/endpoints`, { headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(endpointReads).toHaveLength(2);
  });

  it('hands every other request to the app', async () => {
    for (const [method, path] of [['GET', '/v1/agent/metrics'], ['POST', '/v1/agent/endpoints'], ['POST', '/v1/agent/metrics?x=1'], ['POST', '/v1/clusters'], ['GET', '/']]) {
      const res = await fetch(`${url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status).toBe(299);
      expect(await res.text()).toBe('express');
    }
  });
});

describe('PerTurnGate', () => {
  it('lets a few callers through per turn of the event loop, so other work runs between them, and loses none', async () => {
    const gate = new PerTurnGate(3);
    const order: string[] = [];
    const passes = Array.from({ length: 7 }, (_, i) => gate.pass().then(() => void order.push(`push${i}`)));
    // Work that becomes ready meanwhile (an API request's next step) runs between the batches.
    const other = (async () => {
      for (let t = 0; t < 3; t++) {
        await new Promise<void>((r) => setImmediate(r));
        order.push(`api${t}`);
      }
    })();
    await Promise.all([...passes, other]);
    expect(order.filter((x) => x.startsWith('push'))).toEqual(['push0', 'push1', 'push2', 'push3', 'push4', 'push5', 'push6']);
    const firstApi = order.indexOf('api0');
    expect(firstApi).toBeGreaterThan(0);
    expect(firstApi).toBeLessThan(order.indexOf('push6')); // not all seven before any other work
    expect(order.slice(0, 3)).toEqual(['push0', 'push1', 'push2']);
    expect(order.slice(0, 4)).not.toContain('push3'); // the fourth waits for the next turn
  });
});
