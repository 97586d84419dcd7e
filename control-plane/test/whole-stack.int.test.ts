/**
 * Strata itself going away, with data in the cluster: the control plane
 * killed while it heals, every Strata process killed (engines surviving or
 * not), a clean stop and start, deletes racing creates, and slots left open.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startStack, type Stack } from '@strata/local';
import type { Topology } from '@strata/api';
import { redisPidsOn, testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, enginePid, loadKeys } from './helpers/workload';
import { keysInSlots, missingKeys } from './helpers/shard-keys';

const PREFIX = '127.0.18';
/** Arms the control plane's fault points (fault-point.ts): it kills itself when it passes the point written here. */
const FAULT_FILE = path.join(tmpdir(), `strata-whole-stack-fault-${process.pid}`);
// Node loss is not under test here (node-loss, node-rebuild): on a loaded machine restarted agents may take
// longer than the 15 s default to report, and their copies would be rebuilt elsewhere instead of adopted.
const ENV = { STRATA_REBALANCE_AFTER_MS: '1500', STRATA_TEST_FAULT_FILE: FAULT_FILE, STRATA_NODE_DOWN_AFTER_MS: '90000' };
let stack: Stack;
let api: TestApi;

beforeAll(async () => {
  ({ stack, api } = await testStack(PREFIX, { nodes: 3, extraEnv: ENV }));
});
// The last test replaces the stack: stop whichever runs now, then remove the directory.
afterAll(async () => {
  await stack?.stop();
  if (stack && !process.env.STRATA_KEEP_TEST_DIRS) rmSync(stack.dir, { recursive: true, force: true });
  rmSync(FAULT_FILE, { force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Arms a fault point, waits until the control plane has killed itself there, and starts it again. */
async function crashAt(point: string, during: () => Promise<void>): Promise<void> {
  writeFileSync(FAULT_FILE, point);
  await during();
  const deadline = Date.now() + 60_000;
  while (await fetch(`${stack.url}/healthz`).then(() => true, () => false)) {
    if (Date.now() > deadline) throw new Error(`the control plane never reached ${point}`);
    await sleep(50);
  }
  await stack.stopControlPlane('SIGKILL'); // reaps the dead process
  await stack.startControlPlane();
}

/** Every cluster on the stack (earlier tests' too) ready with its primaries spread. */
async function everyClusterHealthyAndSpread(): Promise<void> {
  for (const c of (await api.listClusters()).body.items) await healthyAndSpread(c.id);
}

/** A client writing (each write acknowledged by `replicas` replicas) from before a fault until after it healed. */
function writing(uri: string, replicas: number) {
  const writer = new DurableWriter(appClient(uri), 'w', replicas).start();
  let ackedAtFault = 0;
  return {
    writer,
    faultNow: () => { ackedAtFault = writer.acked.length; },
    /** Stops it; no acknowledged write lost, and writes were acknowledged after the fault. */
    async nothingLost() {
      await sleep(300);
      await writer.stop();
      writer['client'].disconnect();
      const c = appClient(uri);
      try {
        expect(await writer.lost(c)).toEqual([]);
      } finally {
        c.disconnect();
      }
      expect(writer.acked.length).toBeGreaterThan(ackedAtFault + 10);
      console.log(`writer: ${writer.acked.length} acknowledged writes (${ackedAtFault} before the fault), ${writer.errors} errors, longest gap ${writer.longestGapMs} ms`);
    },
  };
}

const KEYS = 5_000;
const addresses = () => stack.agents.map((a) => a.address);

async function ready(name: string, spec: Record<string, unknown>) {
  const r = await api.createCluster({ name, memoryMbPerShard: 64, ...spec });
  expect(r.status).toBe(202);
  await api.waitForPhase(r.body.cluster.id, 'ready');
  const id = r.body.cluster.id;
  return { id, uri: (await api.connection(id)).body.uri, topology: await api.waitForHealthy(id) };
}

const spread = (t: Topology) => t.shards.every((s) => s.instances.find((i) => i.role === 'primary')!.preferredRole === 'primary');

async function healthyAndSpread(id: string): Promise<Topology> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const t = await api.waitForHealthy(id);
    if (spread(t)) return t;
    if (Date.now() > deadline) throw new Error('primaries not spread again');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function keysIntact(uri: string, prefix = 'k') {
  const c = appClient(uri);
  try {
    return await countPresent(c, prefix, KEYS);
  } finally {
    c.disconnect();
  }
}

describe('the control plane killed while it heals', () => {
  it('kill -9 right after it asked for the promotion, then right after it asked to move the primary back: each restarted control plane completes the heal, one event each, no key lost', async () => {
    const { id, uri, topology } = await ready('heal-crash', { shards: 3, replicasPerShard: 1 });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 1);
    app.disconnect();
    const w = writing(uri, 1);
    await sleep(300);
    const victim = topology.shards[0]!.instances.find((i) => i.role === 'primary')!;
    await crashAt('heal-promote-enqueued', async () => {
      w.faultNow();
      process.kill(enginePid(victim.address), 'SIGKILL');
    });
    // The new control plane records the promotion the agent carried out, restarts the old primary as a replica,
    // and dies again right after asking for the switchover back.
    await crashAt('heal-switchover-enqueued', async () => {
      await api.waitForEvent(id, 'failover', (e) => e.oldPrimary.instanceId === victim.id);
    });
    await api.waitForEvent(id, 'primaries-rebalanced', (e) => e.moves.some((m) => m.to.instanceId === victim.id), 60_000);
    await healthyAndSpread(id);
    await w.nothingLost();
    expect(await keysIntact(uri)).toBe(KEYS);
    const events = (await api.events(id, '?limit=200')).body.items;
    expect(events.filter((e) => e.type === 'failover' && e.cause === 'process-crash')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'failover' && e.cause === 'switchover')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'primaries-rebalanced')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'instance-restarted' && e.instance.instanceId === victim.id)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'data-lost')).toEqual([]);
  });

  it('kill -9 right after it asked to restart a primary without replicas (durability none): the data-lost event was written with the restart, and only that shard\'s keys are gone', async () => {
    const { id, uri, topology } = await ready('heal-crash-none', { shards: 3, replicasPerShard: 0 });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 0);
    app.disconnect();
    const writer = new DurableWriter(appClient(uri), 'w', 0).start();
    await sleep(300);
    const victim = topology.shards[1]!.instances[0]!;
    let ackedAtKill = 0;
    await crashAt('heal-restart-enqueued', async () => {
      ackedAtKill = writer.acked.length;
      process.kill(enginePid(victim.address), 'SIGKILL');
    });
    await api.waitForHealthy(id);
    const events = (await api.events(id, '?limit=200')).body.items;
    expect(events.filter((e) => e.type === 'data-lost' && e.shard === 1 && e.instance.instanceId === victim.id)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'instance-restarted' && e.instance.instanceId === victim.id)).toHaveLength(1);
    await sleep(300);
    await writer.stop();
    writer['client'].disconnect();
    const c = appClient(uri);
    try {
      const shard1 = topology.shards[1]!.slots;
      expect(await missingKeys(c, 'k', KEYS)).toEqual(await keysInSlots(c, Array.from({ length: KEYS }, (_, i) => `k:${i}`), shard1));
      const lostWrites = await writer.lost(c);
      expect(await keysInSlots(c, lostWrites, shard1)).toEqual(lostWrites);
      // (the writer has one write in flight: its reply may have left the server before the kill and be read after it)
      expect(lostWrites.filter((k) => writer.acked.indexOf(k) > ackedAtKill)).toEqual([]);
      expect(writer.acked.length).toBeGreaterThan(ackedAtKill + 10);
    } finally {
      c.disconnect();
    }
  });
});

describe('every Strata process killed', () => {
  it('engines survive: everything comes back, same engines, data served', async () => {
    const { id, uri } = await ready('all-killed', { shards: 2, replicasPerShard: 1 });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 1);
    app.disconnect();
    const before = redisPidsOn(addresses()).sort();
    const w = writing(uri, 1);
    await sleep(300);
    w.faultNow();
    await Promise.all([stack.stopControlPlane('SIGKILL'), ...stack.agents.map((_, i) => stack.stopAgent(i, 'SIGKILL'))]);
    await stack.startControlPlane();
    await Promise.all(stack.agents.map((_, i) => stack.startAgent(i)));
    await healthyAndSpread(id);
    await w.nothingLost();
    expect(redisPidsOn(addresses()).sort()).toEqual(before);
    expect(await keysIntact(uri)).toBe(KEYS);
    await everyClusterHealthyAndSpread();
  });

  it('engines killed too (aof-everysec): ready again, primaries spread, every key back from the AOF', async () => {
    const { id, uri } = await ready('all-dead', { shards: 3, replicasPerShard: 1, durability: 'aof-everysec' });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 1);
    app.disconnect();
    const w = writing(uri, 1);
    await sleep(300);
    w.faultNow();
    await Promise.all([stack.stopControlPlane('SIGKILL'), ...stack.agents.map((_, i) => stack.stopAgent(i, 'SIGKILL'))]);
    for (const pid of redisPidsOn(addresses())) process.kill(pid, 'SIGKILL');
    await stack.startControlPlane();
    await Promise.all(stack.agents.map((_, i) => stack.startAgent(i)));
    await healthyAndSpread(id);
    // Acknowledged by a replica means in two AOFs (everysec: a process kill keeps what was written to the file).
    await w.nothingLost();
    expect(await keysIntact(uri)).toBe(KEYS);
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
    // The other clusters on the stack (durability none, engines killed: they are back, empty, and say so).
    for (const c of (await api.listClusters()).body.items) {
      await healthyAndSpread(c.id);
      if (c.id === id || c.spec.durability !== 'none') continue;
      expect((await api.events(c.id, '?limit=200')).body.items.some((e) => e.type === 'data-lost')).toBe(true);
    }
  });
});

describe('delete during create', () => {
  it('at several points: every cluster ends deleted and no engine is left', async () => {
    const ids: string[] = [];
    for (const delayMs of [0, 50, 200, 600, 1200]) {
      const r = await api.createCluster({ name: `race-${delayMs}`, shards: 2, replicasPerShard: 1, memoryMbPerShard: 32 });
      expect(r.status).toBe(202);
      await new Promise((res) => setTimeout(res, delayMs));
      expect((await api.deleteCluster(r.body.cluster.id)).status).toBe(202);
      ids.push(r.body.cluster.id);
    }
    for (const id of ids) await api.waitForGone(id);
    const left = (await api.listClusters()).body.items.filter((c) => c.name.startsWith('race-'));
    expect(left).toEqual([]);
    // Engines of the other tests' clusters remain; none of these clusters' instances do.
    const dirs = stack.agents.flatMap((a) => {
      try {
        return (JSON.parse(readFileSync(path.join(a.dir, 'instances.json'), 'utf8')) as { spec: { clusterId: string } }[]).map((r) => r.spec.clusterId);
      } catch {
        return [];
      }
    });
    expect(dirs.filter((c) => ids.includes(c))).toEqual([]);
  });
});

describe('slots left importing/migrating', () => {
  it('are closed, keys moved back to the owner, and the repair is recorded', async () => {
    const { id, uri, topology } = await ready('open-slots', { shards: 2, replicasPerShard: 0 });
    const app = appClient(uri);
    await app.set('{open}:a', '1');
    await app.set('{open}:b', '2');
    const slot = Number(await app.cluster('KEYSLOT', '{open}'));
    const owner = topology.shards.find((s) => s.slots.some((r) => r.start <= slot && slot <= r.end))!.instances[0]!;
    const other = topology.shards.find((s) => s.instances[0]!.id !== owner.id)!.instances[0]!;
    // The agents' own record of the engine credentials (what an operator on the host has).
    const agentDir = stack.agents.find((a) => owner.address.startsWith(`${a.address}:`))!.dir;
    const rec = (JSON.parse(readFileSync(path.join(agentDir, 'instances.json'), 'utf8')) as { spec: { instanceId: string }; credentials: { internalUser: string; internalPassword: string } }[])
      .find((r) => r.spec.instanceId === owner.id)!;
    const admin = (address: string) => new Redis({ host: address.split(':')[0], port: Number(address.split(':')[1]), username: rec.credentials.internalUser, password: rec.credentials.internalPassword });
    const a = admin(owner.address);
    const b = admin(other.address);
    const [aId, bId] = [String(await a.call('CLUSTER', 'MYID')), String(await b.call('CLUSTER', 'MYID'))];
    // An interrupted migration: slot open on both sides, one key already moved.
    await b.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', aId);
    await a.call('CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', bId);
    const [bHost, bPort] = other.address.split(':');
    await a.call('MIGRATE', bHost!, bPort!, '', '0', '5000', 'AUTH2', rec.credentials.internalUser, rec.credentials.internalPassword, 'KEYS', '{open}:a');

    const repaired = await api.waitForEvent(id, 'slots-repaired');
    expect(repaired.slots).toEqual([{ slot, movedKeys: 1 }]);
    for (const c of [a, b]) expect(String(await c.call('CLUSTER', 'NODES'))).not.toMatch(/\[\d+-[<>]-/);
    expect(await app.get('{open}:a')).toBe('1');
    expect(await app.get('{open}:b')).toBe('2');
    await api.waitForHealthy(id);
    a.disconnect();
    b.disconnect();
    app.disconnect();
  });
});

describe('a clean stop and start of the whole stack', () => {
  it('brings every cluster back ready, primaries spread, AOF keys intact', async () => {
    const { id, uri } = await ready('restart-all', { shards: 3, replicasPerShard: 1, durability: 'aof-everysec' });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 1);
    app.disconnect();
    // A client writes until the stop and again after the start: every write acknowledged before the stop is still there.
    const w = writing(uri, 1);
    await sleep(500);
    w.faultNow();
    const { leftoverPids } = await stack.stop();
    expect(leftoverPids).toEqual([]);
    stack = await startStack({ endWithLauncher: true, dir: stack.dir, addressPrefix: PREFIX, port: 0, nodes: 3, fastPostgres: true, extraEnv: ENV });
    api = new TestApi(stack.url, stack.adminToken);
    await healthyAndSpread(id);
    await w.nothingLost();
    expect(await keysIntact(uri)).toBe(KEYS);
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
    await everyClusterHealthyAndSpread();
  });
});
