/**
 * Losing a whole node (agent and every engine killed) while a client
 * writes: Redis fails over, the node is declared down, every copy it held is
 * rebuilt on the remaining nodes with the cluster's database users (also
 * across a kill -9 of the control plane as the rebuild begins), the cluster
 * is ready again with its
 * replication factor restored and every replicated key; when the node comes
 * back its stale engines are removed, never serving as primaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { Stack } from '@strata/local';
import { redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.25', {
    nodes: 4, extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '3000', STRATA_REBALANCE_AFTER_MS: '2000' },
  }));
});
afterAll(async () => cleanup?.());

const KEYS = 10_000;

describe('a node lost with its engines', () => {
  it('is healed: failover, node-down, replicas rebuilt elsewhere, ready with every replicated key; its return leaves no stale engine', async () => {
    const r = await api.createCluster({ name: 'lose-a-node', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    const before = await api.waitForHealthy(id);
    // A database user: the rebuilt copies must have it too.
    const user = await api.call<{ password: string }>('POST', `/v1/clusters/${id}/users`, { name: 'reader', preset: 'read-only' });
    expect(user.status).toBe(201);
    const conn = (await api.connection(id)).body;
    const uri = conn.uri;
    // As the README tells applications: give the client every seed, not one host.
    const app = appClient(uri, conn.seeds);
    await loadKeys(app, 'k', KEYS, 1);
    // The writer is given nothing but the URI read before the loss (default ioredis retries).
    const writerClient = appClient(uri);
    const writer = new DurableWriter(writerClient, 'w', 1).start();
    await new Promise((res) => setTimeout(res, 300));

    // The node holding shard 0's primary goes away entirely.
    const victimNodeId = before.shards[0]!.instances.find((i) => i.role === 'primary')!.nodeId;
    const index = stack.agents.findIndex((a) => before.shards[0]!.instances.some((i) => i.nodeId === victimNodeId && i.address.startsWith(`${a.address}:`)));
    const agent = stack.agents[index]!;
    const lostIds = before.shards.flatMap((s) => s.instances).filter((i) => i.nodeId === victimNodeId).map((i) => i.id);
    expect(lostIds.length).toBeGreaterThanOrEqual(1);
    await stack.stopAgent(index, 'SIGKILL');
    for (const pid of redisPidsOn([agent.address])) process.kill(pid, 'SIGKILL');
    const lostAt = Date.now();

    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 0);
    expect(['node-lost', 'engine']).toContain(failover.cause);
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === victimNodeId);
    // The control plane dies without warning while a rebuild is in flight: a replacement is
    // placed but not yet a healthy, synced member. A new control plane finishes it.
    const beforeIds = new Set(before.shards.flatMap((s) => s.instances).map((i) => i.id));
    const inFlight = await api.pollUntil(async () => {
      const t = (await api.topology(id)).body;
      return t.shards.flatMap((s) => s.instances).find((i) => !beforeIds.has(i.id) && (i.health !== 'healthy' || i.sync !== null));
    }, 60_000, () => 'no replacement seen in flight');
    await stack.stopControlPlane('SIGKILL');
    await stack.startControlPlane();
    // Generous: the new control plane first waits out the dead one's lease, and a loaded CI machine is slower.
    await api.waitForEvent(id, 'replica-rebuilt', (e) => e.shard === 0, 60_000);

    const healed = await api.waitForHealthy(id, 90_000);
    const healedAfterMs = Date.now() - lostAt;
    // The copy in flight at the kill was finished by the new control plane.
    expect(healed.shards.flatMap((s) => s.instances).find((i) => i.id === inFlight.id)).toMatchObject({ health: 'healthy', sync: null });
    for (const s of healed.shards) {
      expect(s.instances).toHaveLength(2);
      expect(new Set(s.instances.map((i) => i.nodeId)).size).toBe(2);
      expect(s.instances.some((i) => i.nodeId === victimNodeId)).toBe(false);
    }
    // Every copy, the rebuilt ones included, opens for the database user.
    for (const i of healed.shards.flatMap((s) => s.instances)) {
      const [host, port] = i.address.split(':');
      const c = new Redis({ host, port: Number(port), lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => {});
      try {
        await c.connect();
        expect(await c.call('AUTH', 'reader', user.body.password), i.address).toBe('OK');
      } finally {
        c.disconnect();
      }
    }
    await writer.stop();
    const fresh = appClient(uri, (await api.connection(id)).body.seeds);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    expect(await writer.lost(fresh)).toEqual([]);
    console.log(`node lost -> replication factor restored in ${healedAfterMs} ms; writer ${writer.acked.length} acknowledged, ${writer.errors} errors`);

    // The node comes back: its old engines are removed; no stale primary, no second owner of any
    // slot, sampled throughout its return (not only at the end).
    const internal = (await import('node:fs')).readFileSync(`${stack.agents[(index + 1) % 4]!.dir}/instances.json`, 'utf8');
    const creds = (JSON.parse(internal) as { credentials: { internalUser: string; internalPassword: string } }[])[0]!.credentials;
    const conns = new Map<string, Redis>();
    const member = (address: string) => {
      if (!conns.has(address)) {
        const [host, port] = address.split(':');
        const c = new Redis({ host, port: Number(port), username: creds.internalUser, password: creds.internalPassword, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500, commandTimeout: 1000 });
        c.on('error', () => {});
        conns.set(address, c);
      }
      return conns.get(address)!;
    };
    const violations: string[] = [];
    let samples = 0;
    const sample = async (members: string[]) => {
      samples++;
      // Every member: exactly one master per shard serving slots, each slot owned exactly once, no node on the victim.
      for (const address of members) {
        const out = await member(address).call('CLUSTER', 'NODES').catch(() => null);
        if (out === null) continue;
        const lines = String(out).trim().split('\n');
        const owners = new Array<number>(16384).fill(0);
        const masters = lines.filter((l) => l.split(' ')[2]!.includes('master') && l.split(' ').length > 8);
        for (const l of masters) {
          for (const r of l.split(' ').slice(8)) {
            if (r.startsWith('[')) continue;
            const [a, b] = r.split('-').map(Number);
            for (let k = a!; k <= (b ?? a!); k++) owners[k]!++;
          }
        }
        if (masters.length !== 3) violations.push(`${address}: ${masters.length} masters with slots`);
        const bad = owners.findIndex((n) => n !== 1);
        if (bad >= 0) violations.push(`${address}: slot ${bad} owned ${owners[bad]} times`);
        if (lines.some((l) => l.includes(`${agent.address}:`))) violations.push(`${address}: still knows a node on ${agent.address}`);
      }
      // Every engine on the returned node: never a primary claiming slots.
      for (const pid of redisPidsOn([agent.address])) {
        let address: string | undefined;
        try { address = readFileSync(`/proc/${pid}/cmdline`, 'utf8').match(/(\d+\.\d+\.\d+\.\d+:\d+)/)?.[1]; } catch { continue; }
        if (!address) continue;
        const info = await member(address).info('replication').catch(() => null);
        if (info && /role:master/.test(info)) {
          const myself = String(await member(address).call('CLUSTER', 'NODES').catch(() => '')).split('\n').find((l) => l.includes('myself'));
          if (myself && myself.split(' ').length > 8) violations.push(`${address} (returned node): a primary claiming slots ${myself.split(' ').slice(8).join(' ')}`);
        }
      }
    };
    const members = healed.shards.flatMap((s) => s.instances).map((i) => i.address);
    await stack.startAgent(index);
    // At least 12 s (the agent's recovery and two orphan sweeps), and while any engine is left there.
    const started = Date.now();
    const deadline = started + 30_000;
    while ((Date.now() - started < 12_000 || redisPidsOn([agent.address]).length > 0) && Date.now() < deadline) {
      await sample(members);
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(redisPidsOn([agent.address])).toEqual([]);
    const t = await api.waitForHealthy(id);
    await sample(t.shards.flatMap((s) => s.instances).map((i) => i.address));
    expect(samples).toBeGreaterThan(10);
    expect(violations).toEqual([]);
    for (const c of conns.values()) c.disconnect();
    expect(lostIds.every((lid) => !t.shards.flatMap((s) => s.instances).some((i) => i.id === lid))).toBe(true);
    app.disconnect();
    fresh.disconnect();
    writerClient.disconnect();
  });
});
