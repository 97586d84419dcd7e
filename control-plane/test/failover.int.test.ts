/**
 * A crashed primary, with data in the cluster and a client writing while it
 * happens: no replicated key is lost, the replica takes over at once, the
 * old primary comes back as a replica, primaries are spread again, and the
 * user is told what happened (events), including when data was lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '@strata/api';
import type { Stack } from '@strata/local';
import { internalCredentials, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, countPresentEventually, DurableWriter, enginePid, loadKeys } from './helpers/workload';
import { keysInSlots, missingKeys } from './helpers/shard-keys';
import { expectNothingLost } from './helpers/nothing-lost';
import { standalone } from './helpers/redis-client';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.17', { nodes: 3, extraEnv: { STRATA_REBALANCE_AFTER_MS: '2000' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 20_000;

async function ready(name: string, spec: Record<string, unknown>) {
  const r = await api.createCluster({ name, memoryMbPerShard: 64, ...spec });
  expect(r.status).toBe(202);
  await api.waitForPhase(r.body.cluster.id, 'ready');
  const id = r.body.cluster.id;
  const uri = (await api.connection(id)).body.uri;
  return { id, uri, topology: await api.waitForHealthy(id) };
}

const primaryOf = (t: Topology, shard: number) => t.shards[shard]!.instances.find((i) => i.role === 'primary')!;

async function drop(id: string) {
  await api.deleteCluster(id);
  await api.waitForGone(id);
}

describe.each(['none', 'aof-everysec'] as const)('kill -9 of a primary, 3x1, durability %s', (durability) => {
  it('loses no replicated key; the replica takes over, the old primary rejoins as a replica, primaries spread again', async () => {
    const { id, uri, topology } = await ready(`kill-primary-${durability}`, { shards: 3, replicasPerShard: 1, durability });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 1);
    const writer = new DurableWriter(appClient(uri), 'w', 1).start();
    await new Promise((r) => setTimeout(r, 300));

    const victim = primaryOf(topology, 1);
    const replica = topology.shards[1]!.instances.find((i) => i.role === 'replica')!;
    process.kill(enginePid(victim.address), 'SIGKILL');

    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 1);
    expect(failover).toMatchObject({ cause: 'process-crash', oldPrimary: { instanceId: victim.id }, newPrimary: { instanceId: replica.id } });
    expect(failover.writeUnavailableMs).toBeGreaterThanOrEqual(0);
    // Strata's own timeline of the failover: seen, then promoted, then the cluster ok.
    const [detected, promoted, ok] = [failover.detectedAt, failover.promotedAt, failover.clusterOkAt].map((t) => Date.parse(t ?? ''));
    expect(detected).toBeLessThanOrEqual(promoted!);
    expect(promoted).toBeLessThanOrEqual(ok!);
    expect(failover.writeUnavailableMs).toBe(ok! - detected!);
    await api.waitForEvent(id, 'instance-restarted', (e) => e.instance.instanceId === victim.id);

    // Healthy again with the old primary as a replica (before or after the switch back).
    const after = await api.waitForHealthy(id);
    expect(after.shards[1]!.instances).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 300));
    await writer.stop();

    const fresh = appClient(uri);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    expect(writer.acked.length).toBeGreaterThan(10);
    expect(await writer.lost(fresh)).toEqual([]);
    console.log(`writer: ${writer.acked.length} acknowledged writes, ${writer.errors} errors, longest gap ${writer.longestGapMs} ms; failover event: ${failover.writeUnavailableMs} ms`);
    // No data was lost, so none was reported.
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);

    // Primaries move back to their preferred (spread) instances with a data-safe switchover.
    // A switchover Redis refuses (replica not caught up yet on a busy machine) is retried with backoff: allow for it.
    await api.waitForEvent(id, 'primaries-rebalanced', (e) => e.moves.some((m) => m.to.instanceId === victim.id), 90_000);
    const spread = await api.waitForHealthy(id);
    expect(primaryOf(spread, 1).id).toBe(victim.id);
    expect(new Set(spread.shards.map((s) => s.instances.find((i) => i.role === 'primary')!.nodeId)).size).toBe(3);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    fresh.disconnect();
    app.disconnect();
    writer['client'].disconnect();
    await drop(id);
  });
});

describe('kill -9 of a primary with two replicas, one of them behind, a WAIT 1 client writing', () => {
  it('promotes the replica that has every acknowledged write, not the one that was behind; nothing acknowledged is lost', async () => {
    const { id, uri, topology } = await ready('two-replicas', { shards: 3, replicasPerShard: 2, memoryMbPerShard: 256 });
    const app = appClient(uri);
    await loadKeys(app, 'k', 5000, 1);
    const victim = primaryOf(topology, 1);
    const [ahead, behind] = topology.shards[1]!.instances.filter((i) => i.role === 'replica');
    const writer = new DurableWriter(appClient(uri), 'w', 1).start();
    await new Promise((r) => setTimeout(r, 300));
    // One replica stops reading the replication stream; WAIT 1 is answered by the other. 48 MB written to the shard
    // meanwhile is more than the paused replica's socket buffers can hold (receive <= 32 MB, send <= 4 MB here), so the
    // rest stays in the primary's memory and dies with it: that replica is really behind, not just late.
    const [filler] = await keysInSlots(app, Array.from({ length: 200 }, (_, i) => `filler:${i}`), topology.shards[1]!.slots);
    const behindPid = enginePid(behind!.address);
    const primary = standalone(victim.address, internalCredentials(stack, victim.address));
    process.kill(behindPid, 'SIGSTOP');
    try {
      const mb = 'x'.repeat(1 << 20);
      for (let i = 0; i < 48; i++) expect(Number((await app.pipeline().set(filler!, mb).call('WAIT', '1', '5000').exec())![1]![1])).toBeGreaterThanOrEqual(1);
      const ackedBefore = writer.acked.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(writer.acked.length, 'writes acknowledged while one replica was paused').toBeGreaterThan(ackedBefore + 10);
      const info = String(await primary.info('replication'));
      const master = Number(/master_repl_offset:(\d+)/.exec(info)![1]);
      // Replicas connect from 127.0.0.1 (they bind no source address): each is known by its port.
      const behindPort = behind!.address.split(':')[1];
      const lines = [...info.matchAll(new RegExp(`^slave\\d+:ip=[^,]+,port=${behindPort},state=\\w+,offset=(\\d+)`, 'gm'))];
      expect(lines, info).toHaveLength(1);
      const behindAcked = Number(lines[0]![1]);
      expect(master - behindAcked, 'bytes the paused replica has not acknowledged').toBeGreaterThan(48e6);
      // The primary dies; the paused replica resumes at the same moment, with an older offset than the other.
      process.kill(enginePid(victim.address), 'SIGKILL');
    } finally {
      process.kill(behindPid, 'SIGCONT');
      primary.disconnect();
    }
    app.disconnect();
    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 1, 60_000);
    expect(failover).toMatchObject({ oldPrimary: { instanceId: victim.id }, newPrimary: { instanceId: ahead!.id } });
    await api.waitForHealthy(id, 90_000);
    await new Promise((r) => setTimeout(r, 300));
    await expectNothingLost(writer, appClient(uri), 5000);
    console.log(`two replicas: ${writer.acked.length} acknowledged writes, failover event ${failover.writeUnavailableMs} ms, longest gap ${writer.longestGapMs} ms`);
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
    await drop(id);
  });
});

describe("a primary's node stops reporting (its agent and the primary killed)", () => {
  it("Redis fails over; the failover event says node-lost, with Strata's window counted from the node's last report; nothing acknowledged lost; the node's return brings the old primary back as a replica", async () => {
    const { id, uri, topology } = await ready('node-lost-primary', { shards: 3, replicasPerShard: 1 });
    const app = appClient(uri);
    await loadKeys(app, 'k', 5000, 1);
    app.disconnect();
    const writer = new DurableWriter(appClient(uri), 'w', 1).start();
    await new Promise((r) => setTimeout(r, 300));
    const victim = primaryOf(topology, 0);
    const agent = stack.agents.findIndex((a) => victim.address.startsWith(`${a.address}:`));
    const ackedAtKill = writer.acked.length;
    await stack.stopAgent(agent, 'SIGKILL');
    process.kill(enginePid(victim.address), 'SIGKILL');

    const failover = await api.waitForEvent(id, 'failover', (e) => e.shard === 0, 60_000);
    expect(failover).toMatchObject({ cause: 'node-lost', oldPrimary: { instanceId: victim.id } });
    const [detected, promoted, ok] = [failover.detectedAt, failover.promotedAt, failover.clusterOkAt].map((t) => Date.parse(t ?? ''));
    expect(detected).toBeLessThanOrEqual(promoted!);
    expect(promoted).toBeLessThanOrEqual(ok!);
    expect(failover.writeUnavailableMs).toBe(ok! - detected!);

    await stack.startAgent(agent);
    const after = await api.waitForHealthy(id, 90_000);
    expect(after.shards[0]!.instances.find((i) => i.id === victim.id)?.health).toBe('healthy');
    await new Promise((r) => setTimeout(r, 300));
    await writer.stop();
    writer['client'].disconnect();
    const fresh = appClient(uri);
    try {
      expect(await countPresent(fresh, 'k', 5000)).toBe(5000);
      expect(await writer.lost(fresh)).toEqual([]);
      expect(writer.acked.length).toBeGreaterThan(ackedAtKill + 10);
    } finally {
      fresh.disconnect();
    }
    console.log(`node-lost failover: Strata's window ${failover.writeUnavailableMs} ms; writer longest gap ${writer.longestGapMs} ms`);
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
    await drop(id);
  });
});

describe('kill -9 of a primary without replicas, a client writing throughout', () => {
  it('durability none: restarted, exactly the killed shard\'s keys are gone, and the user is told the shard lost its data', async () => {
    const { id, uri, topology } = await ready('no-replica-none', { shards: 3, replicasPerShard: 0 });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 0);
    const writer = new DurableWriter(appClient(uri), 'w', 0).start();
    await new Promise((r) => setTimeout(r, 300));
    const victim = primaryOf(topology, 2);
    process.kill(enginePid(victim.address), 'SIGKILL');
    const ackedAtKill = writer.acked.length;
    const lost = await api.waitForEvent(id, 'data-lost', (e) => e.shard === 2);
    expect(lost.message).toMatch(/durability "none"/);
    expect(lost.instance.instanceId).toBe(victim.id);
    await api.waitForHealthy(id);
    await new Promise((r) => setTimeout(r, 300));
    await writer.stop();
    writer['client'].disconnect();
    app.disconnect();
    const fresh = appClient(uri);
    try {
      // Exactly the killed shard's loaded keys are gone, as reported; the other two shards keep all of theirs.
      const shard2 = topology.shards[2]!.slots;
      const loaded = Array.from({ length: KEYS }, (_, i) => `k:${i}`);
      const expectedGone = await keysInSlots(fresh, loaded, shard2);
      expect(expectedGone.length).toBeGreaterThan(KEYS / 5);
      expect(await missingKeys(fresh, 'k', KEYS)).toEqual(expectedGone);
      // Acknowledged writes lost are all the killed shard's, from before the kill; writing went on after it.
      const lostWrites = await writer.lost(fresh);
      expect(await keysInSlots(fresh, lostWrites, shard2)).toEqual(lostWrites);
      // (the writer has one write in flight: its reply may have left the server before the kill and be read after it)
      expect(lostWrites.filter((k) => writer.acked.indexOf(k) > ackedAtKill)).toEqual([]);
      expect(writer.acked.length).toBeGreaterThan(ackedAtKill + 10);
      console.log(`writer: ${writer.acked.length} acknowledged writes (${lostWrites.length} lost with shard 2), ${writer.errors} errors, longest gap ${writer.longestGapMs} ms`);
    } finally {
      fresh.disconnect();
    }
    await drop(id);
  });

  it('durability aof-everysec: restarted from its AOF with every key and every acknowledged write', async () => {
    const { id, uri, topology } = await ready('no-replica-aof', { shards: 3, replicasPerShard: 0, durability: 'aof-everysec' });
    const app = appClient(uri);
    await loadKeys(app, 'k', KEYS, 0);
    const writer = new DurableWriter(appClient(uri), 'w', 0).start();
    await new Promise((r) => setTimeout(r, 300));
    const victim = primaryOf(topology, 0);
    process.kill(enginePid(victim.address), 'SIGKILL');
    const ackedAtKill = writer.acked.length;
    await api.waitForEvent(id, 'instance-restarted', (e) => e.instance.instanceId === victim.id);
    await api.waitForHealthy(id);
    await new Promise((r) => setTimeout(r, 300));
    await writer.stop();
    writer['client'].disconnect();
    const fresh = appClient(uri);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    // The AOF had every acknowledged write (a process crash keeps what was written to the file).
    expect(await writer.lost(fresh)).toEqual([]);
    expect(writer.acked.length).toBeGreaterThan(ackedAtKill + 10);
    fresh.disconnect();
    // The application's long-lived client too, once it caught up.
    const t0 = Date.now();
    expect(await countPresentEventually(app, 'k', KEYS)).toBe(KEYS);
    console.log(`long-lived client caught up after ${Date.now() - t0} ms; writer: ${writer.acked.length} acknowledged writes, longest gap ${writer.longestGapMs} ms`);
    expect((await api.events(id)).body.items.filter((e) => e.type === 'data-lost')).toEqual([]);
    app.disconnect();
    await drop(id);
  });
});
