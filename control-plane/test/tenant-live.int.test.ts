/**
 * Issue 12 in the API: the live event stream (org-scoped, fed by database
 * triggers whatever code path changed a row), the tenant's view of nodes and
 * capacity (nothing of other organizations), and a signed-out session check
 * that is an answer rather than an error.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { Capacity, Cluster, LiveEvent, NodeList, NodeCurrentMetricsList, Problem } from '@strata/api';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { LiveStreamClient } from './helpers/live-stream';
import { enginePid } from './helpers/workload';

let stack: Stack;
let admin: TestApi;
let tenant: TestApi;
let cleanup: () => Promise<void>;
const streams: LiveStreamClient[] = [];
const NODE_MB = 1024;

beforeAll(async () => {
  ({ stack, api: admin, cleanup } = await testStack('127.0.70', { nodes: 3, nodeMemoryMb: NODE_MB }));
  const org = await admin.call<{ token: string }>('POST', '/v1/organizations', { name: 'tenant-co' });
  expect(org.status).toBe(201);
  tenant = new TestApi(stack.url, org.body.token);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await cleanup?.();
});

/** A stream opened with a Bearer token, or with a session cookie (`name=value`). */
const open = async (credential: string) => {
  const headers: Record<string, string> = credential.includes('=') ? { cookie: credential } : { authorization: `Bearer ${credential}` };
  const s = await LiveStreamClient.open(stack.url, headers);
  streams.push(s);
  return s;
};
const isCluster = (id: string, phase?: Cluster['status']['phase']) => (e: LiveEvent): e is Extract<LiveEvent, { type: 'cluster' }> =>
  e.type === 'cluster' && e.cluster.id === id && (!phase || e.cluster.status.phase === phase);
const addresses = () => stack.agents.map((a) => a.address);

describe('tenant view of nodes and capacity', () => {
  let adminCluster: string;
  let tenantCluster: string;

  it('a tenant with no clusters sees no node; capacity gives numbers only', async () => {
    const nodes = await tenant.call<NodeList>('GET', '/v1/nodes');
    expect(nodes.status).toBe(200);
    expect(nodes.body).toEqual({ scope: 'organization', items: [] });
    const cap = await tenant.call<Capacity>('GET', '/v1/capacity');
    // Bounds for the wizard's default shape (1 replica, 256 MB), no per-node vector.
    expect(cap.body).toEqual({
      onlineNodes: 3, replicasPerShard: 1, memoryMbPerShard: 256,
      maxReplicasPerShard: 2, maxMemoryMbPerShard: NODE_MB, maxShards: 6, nodesUsed: null,
    });
    // The platform admin also gets each node's free memory.
    expect((await admin.call<Capacity>('GET', '/v1/capacity')).body.nodeFreeMemoryMb).toEqual([NODE_MB, NODE_MB, NODE_MB]);
    // Bad bounds asked: problem+json 400 naming the parameter.
    for (const [qs, field] of [['replicasPerShard=9', 'replicasPerShard'], ['memoryMbPerShard=abc', 'memoryMbPerShard'], ['shards=0', 'shards']] as const) {
      const bad = await tenant.call<Problem>('GET', `/v1/capacity?${qs}`);
      expect([bad.status, bad.body.code, bad.body.errors?.[0]?.field]).toEqual([400, 'validation_failed', field]);
    }
    const fleet = await admin.call<NodeList>('GET', '/v1/nodes');
    expect(fleet.body.scope).toBe('fleet');
    expect(fleet.body.items.map((n) => n.capacity)).toEqual(Array(3).fill({ memoryMb: NODE_MB, usedMemoryMb: 0 }));
  });

  it("a tenant sees only the nodes its clusters use, its own instances, and no other organization's usage", async () => {
    const a = await admin.createCluster({ name: 'platform-app', shards: 3, replicasPerShard: 0, memoryMbPerShard: 256 });
    const t = await tenant.createCluster({ name: 'tenant-app', shards: 1, replicasPerShard: 0, memoryMbPerShard: 128 });
    expect([a.status, t.status]).toEqual([202, 202]);
    adminCluster = a.body.cluster.id;
    tenantCluster = t.body.cluster.id;
    await Promise.all([admin.waitForPhase(adminCluster, 'ready'), tenant.waitForPhase(tenantCluster, 'ready')]);

    const r = await tenant.call<NodeList>('GET', '/v1/nodes');
    const raw = JSON.stringify(r.body);
    expect(r.body.scope).toBe('organization');
    expect(r.body.items).toHaveLength(1);
    const [node] = r.body.items;
    expect(node!.capacity).toBeNull();
    expect(node!.instances).toEqual([expect.objectContaining({ clusterId: tenantCluster, clusterName: 'tenant-app', organizationName: 'tenant-co', memoryMb: 128 })]);
    // No address of a node it has nothing on, no other cluster's name.
    for (const addr of addresses().filter((x) => x !== node!.address)) expect(raw).not.toContain(addr);
    expect(raw).not.toContain('platform-app');
    expect(raw).not.toContain('usedMemoryMb');

    // The platform admin sees the fleet, with everyone's usage counted.
    const fleet = await admin.call<NodeList>('GET', '/v1/nodes');
    expect(fleet.body.items).toHaveLength(3);
    expect(fleet.body.items.reduce((s, n) => s + n.capacity!.usedMemoryMb, 0)).toBe(3 * 256 + 128);
    // ... and every organization's instances listed: what a node's capacity counts is what it lists.
    for (const n of fleet.body.items) expect(n.instances.reduce((s, i) => s + i.memoryMb, 0)).toBe(n.capacity!.usedMemoryMb);
    const listed = fleet.body.items.flatMap((n) => n.instances.map((i) => `${i.organizationName}/${i.clusterName}`)).sort();
    expect(listed).toEqual(['default/platform-app', 'default/platform-app', 'default/platform-app', 'tenant-co/tenant-app']);
    const tenantNode = fleet.body.items.find((n) => n.id === node!.id)!;
    expect(tenantNode.instances.map((i) => i.clusterId)).toContain(tenantCluster);

    // Capacity: bounds only for a tenant, both organizations' usage counted by the planner. Free now: 768, 768, 640 MB.
    const capFor = async (qs: string) => (await tenant.call<Capacity>('GET', `/v1/capacity?${qs}`)).body;
    const cap = await capFor('');
    expect(cap).not.toHaveProperty('nodeFreeMemoryMb');
    expect(JSON.stringify(cap)).not.toMatch(/127\.0\.70|node-/);
    // 1 replica: the 2nd-largest free node bounds the memory; 256 MB copies: 3 + 3 + 2 = 8 copies = 4 shards.
    expect(cap).toMatchObject({ replicasPerShard: 1, memoryMbPerShard: 256, maxMemoryMbPerShard: NODE_MB - 256, maxShards: 4 });
    // 2 replicas: every node holds a copy, so the smallest (640 MB) bounds memory and 256 MB fits twice there.
    expect(await capFor('replicasPerShard=2&memoryMbPerShard=256&shards=2')).toMatchObject({ maxMemoryMbPerShard: NODE_MB - 256 - 128, maxShards: 2, nodesUsed: 3 });
    expect(await capFor('replicasPerShard=2&memoryMbPerShard=256&shards=3')).toMatchObject({ nodesUsed: null });
    // No replica, 512 MB: one per node.
    expect(await capFor('replicasPerShard=0&memoryMbPerShard=512')).toMatchObject({ maxMemoryMbPerShard: NODE_MB - 256, maxShards: 3 });

    // Host load of shared nodes is the platform's.
    expect((await tenant.call<NodeCurrentMetricsList>('GET', '/v1/metrics/nodes')).body.items).toEqual([]);
    const hist = await tenant.call<Problem>('GET', `/v1/nodes/${node!.id}/metrics?metric=cpu`);
    expect([hist.status, hist.body.code]).toEqual([403, 'forbidden']);
  });

  it('a create the nodes cannot hold names the field at fault', async () => {
    const r = await tenant.createCluster({ name: 'too-big', shards: 1, replicasPerShard: 0, memoryMbPerShard: 4096 });
    expect(r.status).toBe(422);
    // Free now: 768, 768, 640 MB. In human units, at the field at fault.
    expect(r.body.errors).toEqual([{ field: 'memoryMbPerShard', message: 'No room for 4 GB per shard: at most 768 MB per shard fits now.' }]);
    // Too many shards is the shards field (the planner's insufficient_memory is about the total), not the memory.
    const many = await tenant.createCluster({ name: 'too-many', shards: 10, replicasPerShard: 0, memoryMbPerShard: 256 });
    expect([many.status, many.body.code]).toEqual([422, 'unplaceable']);
    expect(many.body.errors).toEqual([{ field: 'shards', message: '10 shards of 256 MB do not fit on the nodes now. At most 8 shards of this size fit.' }]);
    const copies = await tenant.createCluster({ name: 'too-many', shards: 1, replicasPerShard: 3, memoryMbPerShard: 256 });
    expect(copies.body.errors?.map((e) => e.field)).toEqual(['replicasPerShard']);
    expect((await tenant.listClusters()).body.items.map((c) => c.name)).toEqual(['tenant-app']);
  });

  describe('live event stream', () => {
    it('authenticates by token or session cookie and refuses anonymous callers', async () => {
      const anon = await LiveStreamClient.open(stack.url, {});
      expect(anon.status).toBe(401);
      const s = await open(tenant.token);
      expect([s.status, s.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
      await s.waitFor((e) => e.type === 'resync', 5000);

      await tenant.call('POST', '/v1/users', { email: 'dev@tenant.test', password: 'correct-horse-battery' });
      const login = await fetch(`${stack.url}/v1/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'dev@tenant.test', password: 'correct-horse-battery' }),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const viaCookie = await LiveStreamClient.open(stack.url, { cookie });
      streams.push(viaCookie);
      expect(viaCookie.status).toBe(200);
    });

    it('a stream ends once its token is revoked or its session signed out, and hears nothing after', async () => {
      const created = await tenant.call<{ id: string; token: string }>('POST', '/v1/tokens', { name: 'stream-reader', scopes: ['clusters:read'] });
      expect(created.status).toBe(201);
      const byToken = await open(created.body.token);
      await byToken.waitFor((e) => e.type === 'resync', 5000);
      await tenant.call('POST', '/v1/users', { email: 'leaver@tenant.test', password: 'correct-horse-battery' });
      const login = await fetch(`${stack.url}/v1/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'leaver@tenant.test', password: 'correct-horse-battery' }),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;
      const bySession = await open(cookie);
      await bySession.waitFor((e) => e.type === 'resync', 5000);
      const stillOpen = await open(tenant.token);
      await stillOpen.waitFor((e) => e.type === 'resync', 5000);

      expect((await tenant.call('DELETE', `/v1/tokens/${created.body.id}`)).status).toBe(200);
      const signOut = await fetch(`${stack.url}/v1/session`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } });
      expect(signOut.status).toBeLessThan(300);
      const t0 = Date.now();
      await Promise.all([byToken.ended, bySession.ended]);
      expect(Date.now() - t0).toBeLessThan(10_000);

      // A change after that reaches the valid stream only.
      const c = await tenant.createCluster({ name: 'after-revoke', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 });
      expect(c.status).toBe(202);
      await stillOpen.waitFor(isCluster(c.body.cluster.id), 10_000);
      expect(JSON.stringify(byToken.events)).not.toContain(c.body.cluster.id);
      expect(JSON.stringify(bySession.events)).not.toContain(c.body.cluster.id);
      // Reopening with the revoked token is refused.
      expect((await LiveStreamClient.open(stack.url, { authorization: `Bearer ${created.body.token}` })).status).toBe(401);
      await tenant.deleteCluster(c.body.cluster.id);
      await stillOpen.waitFor((e) => e.type === 'cluster-deleted' && e.clusterId === c.body.cluster.id, 60_000);
    });

    it('when the LISTEN connection is lost, open streams get resync once it is back, and changes flow again', async () => {
      const s = await open(tenant.token);
      await s.waitFor((e) => e.type === 'resync', 5000);
      const before = s.events.filter((e) => e.type === 'resync').length;
      const db = new pg.Client({ connectionString: stack.databaseUrl });
      await db.connect();
      try {
        const killed = await db.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE query ILIKE 'LISTEN strata_live%' AND pid <> pg_backend_pid()`);
        expect(killed.rows.length).toBeGreaterThanOrEqual(1);
      } finally {
        await db.end();
      }
      await vi.waitFor(() => expect(s.events.filter((e) => e.type === 'resync').length).toBe(before + 1), { timeout: 15_000, interval: 100 });
      // The feed listens again: a change reaches the same stream.
      const c = await tenant.createCluster({ name: 'after-relisten', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 });
      expect(c.status).toBe(202);
      await s.waitFor(isCluster(c.body.cluster.id), 10_000);
      await tenant.deleteCluster(c.body.cluster.id);
      await s.waitFor((e) => e.type === 'cluster-deleted' && e.clusterId === c.body.cluster.id, 60_000);
    });

    it("a delete shows Deleting, the operation and the removal, to that organization only", async () => {
      const mine = await open(tenant.token);
      const theirs = await open(admin.token);
      await mine.waitFor((e) => e.type === 'resync', 5000);
      await theirs.waitFor((e) => e.type === 'resync', 5000);

      const del = await tenant.deleteCluster(tenantCluster);
      expect(del.status).toBe(202);
      const deleting = await mine.waitFor(isCluster(tenantCluster, 'deleting'), 5000);
      expect(deleting.cluster.name).toBe('tenant-app');
      const op = await mine.waitFor((e) => e.type === 'operation' && e.operation.id === del.body.operation.id, 5000);
      expect(op.type === 'operation' && op.operation.kind).toBe('delete-cluster');
      await mine.waitFor((e) => e.type === 'cluster-deleted' && e.clusterId === tenantCluster, 60_000);
      // Steps of the delete arrive as operation updates, up to the finished one.
      await mine.waitFor((e) => e.type === 'operation' && e.operation.id === del.body.operation.id && e.operation.state === 'succeeded', 10_000);
      const progress = mine.events.flatMap((e) => (e.type === 'operation' && e.operation.id === del.body.operation.id ? [e.operation.progress] : []));
      expect(progress.length).toBeGreaterThan(1);

      // The other organization heard nothing about it.
      expect(JSON.stringify(theirs.events)).not.toContain(tenantCluster);
      expect(JSON.stringify(theirs.events)).not.toContain('tenant-app');
    });

    it('a killed primary: the cluster turns degraded with the reason, then ready again, on the stream', async () => {
      const s = await open(admin.token);
      const topology = await admin.waitForHealthy(adminCluster);
      const victim = topology.shards[1]!.instances.find((i) => i.role === 'primary')!;
      process.kill(enginePid(victim.address), 'SIGKILL');
      const degraded = await s.waitFor(isCluster(adminCluster, 'degraded'), 20_000);
      const reasons = degraded.cluster.status.conditions.filter((c) => c.status === 'false').map((c) => `${c.reason}: ${c.message}`).join('; ');
      expect(reasons).toContain(victim.address.split(':')[1]);
      await s.waitFor(isCluster(adminCluster, 'ready'), 60_000);
      await s.waitFor((e) => e.type === 'cluster-activity' && e.clusterId === adminCluster, 5000);
    });
  });

  it('a signed-out session check with ?optional=true is 200 null; without it 401', async () => {
    const optional = await fetch(`${stack.url}/v1/session?optional=true`);
    expect(optional.status).toBe(200);
    expect(await optional.json()).toBeNull();
    expect((await fetch(`${stack.url}/v1/session`)).status).toBe(401);
  });
});
