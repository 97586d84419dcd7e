import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '@strata/api';
import { loopbackAddress } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';

const ENV_ADMIN_TOKEN = 'operator-chosen-admin-token-1234';
let api: TestApi;
let cleanup: () => Promise<void>;
let url: string;

beforeAll(async () => {
  let stack;
  ({ stack, api, cleanup } = await testStack('127.0.14', { nodes: 2, adminToken: ENV_ADMIN_TOKEN }));
  url = stack.url;
});
afterAll(async () => cleanup?.());

const expectProblem = (r: { status: number; body: unknown; headers: Headers }, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect((r.body as Problem).code).toBe(code);
  return r.body as Problem;
};

describe('organization isolation', () => {
  it('a token of another organization sees 404 on every cluster endpoint', async () => {
    const mine = await api.createCluster({ name: 'private', shards: 1, replicasPerShard: 0 });
    expect(mine.status).toBe(202);
    const org = await api.call<{ token: string }>('POST', '/v1/organizations', { name: 'other-co' });
    expect(org.status).toBe(201);
    const other = new TestApi(url, org.body.token);
    const id = mine.body.cluster.id;
    for (const [method, path] of [
      ['GET', `/v1/clusters/${id}`], ['DELETE', `/v1/clusters/${id}`], ['GET', `/v1/clusters/${id}/topology`],
      ['GET', `/v1/clusters/${id}/connection`], ['GET', `/v1/clusters/${id}/operations`], ['GET', `/v1/operations/${mine.body.operation.id}`],
      ['GET', `/v1/capacity?clusterId=${id}`],
    ] as const) {
      expectProblem(await other.call(method, path), 404, 'not_found');
    }
    expect((await other.listClusters()).body.items).toEqual([]);
    // The other organization may use the same name: names are per organization.
    expect((await other.createCluster({ name: 'private', shards: 1, replicasPerShard: 0 })).status).toBe(202);
    // And it cannot create organizations: that is for platform admins.
    expectProblem(await other.call('POST', '/v1/organizations', { name: 'third' }), 403, 'forbidden');
    await api.waitForPhase(id, 'ready');
    expect((await api.getCluster(id)).status).toBe(200);
  });

  it('accepts STRATA_ADMIN_TOKEN as an admin token of the default organization', async () => {
    const viaEnv = new TestApi(url, ENV_ADMIN_TOKEN);
    const names = (await viaEnv.listClusters()).body.items.map((c) => c.name);
    expect(names).toEqual((await api.listClusters()).body.items.map((c) => c.name));
    expect(names).toContain('private');
    expect((await viaEnv.call('POST', '/v1/nodes/join-tokens', {})).status).toBe(201);
  });

  it('rejects missing and invalid tokens with 401', async () => {
    const r = await fetch(`${url}/v1/clusters`);
    expect(r.status).toBe(401);
    expect(((await r.json()) as Problem).code).toBe('unauthorized');
    expectProblem(await new TestApi(url, 'stk_not-a-real-token').listClusters(), 401, 'unauthorized');
  });
});

describe('bad input stores nothing', () => {
  const cases: [string, unknown, number, string, string][] = [
    ['wrong type', { name: 'bad-a', shards: '3', replicasPerShard: 1 }, 400, 'validation_failed', 'shards'],
    ['unknown field', { name: 'bad-b', shards: 3, replicasPerShard: 0, colour: 'red' }, 400, 'validation_failed', 'colour'],
    ['zero shards', { name: 'bad-c', shards: 0, replicasPerShard: 0 }, 400, 'validation_failed', 'shards'],
    ['too many shards', { name: 'bad-d', shards: 65, replicasPerShard: 0 }, 400, 'validation_failed', 'shards'],
    ['too many replicas', { name: 'bad-e', shards: 1, replicasPerShard: 6 }, 400, 'validation_failed', 'replicasPerShard'],
    ['bad durability', { name: 'bad-f', shards: 1, replicasPerShard: 0, durability: 'sometimes' }, 400, 'validation_failed', 'durability'],
    ['bad name', { name: 'Bad Name!', shards: 1, replicasPerShard: 0 }, 400, 'validation_failed', 'name'],
    ['missing name', { shards: 1, replicasPerShard: 0 }, 400, 'validation_failed', 'name'],
    ['replicas would share a node (2 nodes)', { name: 'bad-g', shards: 1, replicasPerShard: 2 }, 422, 'unplaceable', 'replicasPerShard'],
    ['more memory than the nodes have', { name: 'bad-h', shards: 2, replicasPerShard: 0, memoryMbPerShard: 60000 }, 422, 'unplaceable', 'memoryMbPerShard'],
    ['duplicate name', { name: 'private', shards: 1, replicasPerShard: 0 }, 409, 'name_taken', 'name'],
  ];

  it.each(cases)('%s', async (_label, body, status, code, field) => {
    const before = (await api.listClusters()).body.items.length;
    const nodesBefore = (await api.nodes()).body.items.map((n) => n.capacity!.usedMemoryMb);
    const p = expectProblem(await api.createCluster(body as Record<string, unknown>), status, code);
    expect(p.errors?.map((e) => e.field)).toContain(field);
    expect((await api.listClusters()).body.items.length).toBe(before);
    expect((await api.nodes()).body.items.map((n) => n.capacity!.usedMemoryMb)).toEqual(nodesBefore);
  });

  it('answers malformed JSON and malformed ids with problem+json', async () => {
    expectProblem(await api.call('POST', '/v1/clusters', undefined, '{"name": '), 400, 'validation_failed');
    expectProblem(await api.getCluster('not-a-uuid'), 404, 'not_found');
    expectProblem(await api.call('GET', '/v1/no-such-thing'), 404, 'not_found');
  });

  it('serves an OpenAPI 3.1 document generated from the same schemas', async () => {
    const r = await fetch(`${url}/v1/openapi.json`);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, any> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/clusters'].post.responses).toHaveProperty('422');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});

describe('node registration', () => {
  it('accepts a join token once, and only from a platform admin', async () => {
    const other = await api.call<{ token: string }>('POST', '/v1/organizations', { name: 'no-admin-co' });
    expectProblem(await new TestApi(url, other.body.token).call('POST', '/v1/nodes/join-tokens', {}), 403, 'forbidden');

    const jt = await api.call<{ token: string; expiresAt: string }>('POST', '/v1/nodes/join-tokens', { ttlSeconds: 600 });
    expect(jt.status).toBe(201);
    const register = (name: string) => fetch(`${url}/v1/agent/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ joinToken: jt.body.token, name, address: loopbackAddress('127.0.14.99'), memoryMb: 128, agentVersion: 'test' }),
    });
    const first = await register('extra-node');
    expect(first.status).toBe(201);
    const { credential } = (await first.json()) as { credential: string };
    const second = await register('extra-node-2');
    expect(second.status).toBe(401);
    expect(((await second.json()) as Problem).code).toBe('join_token_invalid');

    // The node credential works for the agent protocol only.
    const status = await fetch(`${url}/v1/agent/status`, {
      method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentVersion: 'test', memoryMb: 128, instances: [] }),
    });
    expect(status.status).toBe(204);
    expectProblem(await new TestApi(url, credential).listClusters(), 401, 'unauthorized');
    const nodes = (await api.nodes()).body.items;
    expect(nodes.find((n) => n.name === 'extra-node')).toMatchObject({ status: 'online', address: loopbackAddress('127.0.14.99') });
  });
});
