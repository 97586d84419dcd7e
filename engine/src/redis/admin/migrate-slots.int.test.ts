/**
 * migrateSlots on real redis-server processes (3 primaries, one replica
 * each): keys of the moving slots are written by a client that counts a
 * write only once `WAIT 1` says a replica has it. The importing primary is
 * killed (SIGKILL) in the middle of the move, its replica promoted (what
 * Strata does for a new shard's primary; Redis does it after
 * cluster-node-timeout), and the move run again into it: every
 * acknowledged write is there, no key lost, none left behind, no slot open.
 * MIGRATE_KILL_RUNS=20 repeats the kill case (each run forms a fresh cluster).
 *
 * Addresses: `${STRATA_TEST_NET ?? '127.0'}.6.1..3`, ports 7200 (primary) and 7201 (replica of the previous host's primary).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import type { FormClusterShard } from '../../domain';
import { planSlots } from '../slots.planner';
import { planSlotTargets } from '../topology.planner';
import { formCluster } from './form-cluster';
import { migrateSlots } from './migrate-slots';
import { repairOpenSlots } from './repair-slots';
import { connectAdmin } from './admin-connection';
import { parseClusterNodes, parseOpenSlots } from './cluster-reply.parser';
import { startRedisFleet, TEST_CREDENTIALS as creds, type RedisFleet } from './testing/redis-fleet.fixture';

const NET = process.env.STRATA_TEST_NET ?? '127.0';
const HOSTS = [1, 2, 3].map((i) => `${NET}.6.${i}`);
const RUNS = Number(process.env.MIGRATE_KILL_RUNS ?? 1);
const KEYS = 20_000;
const internal = { username: creds.internalUser, password: creds.internalPassword };
const slots = planSlots(3);
const shards: FormClusterShard[] = HOSTS.map((host, i) => ({
  slots: [slots[i]!],
  primary: { instanceId: `00000000-0000-4000-8000-00000000000${i}`, host, port: 7200 },
  replicas: [{ instanceId: `00000000-0000-4000-8000-00000000001${i}`, host: HOSTS[(i + 1) % 3]!, port: 7201 }],
}));
const primaries = shards.map((s) => ({ host: s.primary.host, port: s.primary.port }));
/** Shard 0's first 1500 slots move to shard 2 (about 1,800 keys). */
const MOVING = { start: slots[0]!.start, end: slots[0]!.start + 1499 };

let fleet: RedisFleet | undefined;
const closers: (() => void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) c();
  await fleet?.stop();
  fleet = undefined;
});

function appClient(): Cluster {
  const c = new Cluster(primaries, {
    redisOptions: { username: creds.customerUser, password: creds.customerPassword, connectTimeout: 1000 },
    retryDelayOnMoved: 0, retryDelayOnTryAgain: 20, retryDelayOnClusterDown: 100, maxRedirections: 64,
  });
  c.on('error', () => {});
  closers.push(() => c.disconnect());
  return c;
}

/** Writers of k:0..KEYS-1 with SET + WAIT 1: acked (a replica has it) or unsure (the write may or may not have landed). */
class AckedWriter {
  readonly acked = new Map<number, string>();
  readonly unsure = new Map<number, string[]>();
  writes = 0;
  errors = 0;
  private stopped = false;
  private loops: Promise<void>[] = [];
  constructor(private readonly c: Cluster) {}
  start(workers = 4): this {
    for (let w = 0; w < workers; w++) {
      this.loops.push((async () => {
        for (let seq = 0, i = w; !this.stopped; i = (i + workers * 7) % KEYS) {
          const value = `w${w}-${++seq}`;
          try {
            const res = await this.c.pipeline().set(`k:${i}`, value).call('WAIT', '1', '500').exec();
            if (res?.[0]?.[0]) throw res[0][0];
            if (Number(res?.[1]?.[1]) >= 1) {
              this.acked.set(i, value);
              this.unsure.delete(i);
            } else this.unsure.set(i, [...(this.unsure.get(i) ?? []), value]);
            this.writes++;
          } catch {
            this.unsure.set(i, [...(this.unsure.get(i) ?? []), value]);
            this.errors++;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      })());
    }
    return this;
  }
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }
  /** Keys whose value is neither the last acknowledged one (or the loaded one) nor a later unsure write. */
  async wrong(c: Cluster): Promise<string[]> {
    const bad: string[] = [];
    for (let start = 0; start < KEYS; start += 1000) {
      const idx = Array.from({ length: 1000 }, (_, k) => start + k);
      const values = await Promise.all(idx.map((i) => c.get(`k:${i}`)));
      values.forEach((v, k) => {
        const i = idx[k]!;
        const ok = [this.acked.get(i) ?? `v${i}`, ...(this.unsure.get(i) ?? [])];
        if (!ok.includes(v as string)) bad.push(`k:${i}=${v} (acked ${this.acked.get(i) ?? `v${i}`})`);
      });
    }
    return bad;
  }
}

async function admin(host: string, port: number): Promise<Redis> {
  const c = await connectAdmin({ host, port, ...internal }, 5000);
  closers.push(() => c.disconnect());
  return c;
}

async function formed(): Promise<void> {
  fleet = await startRedisFleet(shards.flatMap((s) => [s.primary, ...s.replicas]));
  await formCluster({ shards, ...internal });
  const c = appClient();
  for (let start = 0; start < KEYS; start += 1000) {
    await Promise.all(Array.from({ length: 1000 }, (_, k) => c.set(`k:${start + k}`, `v${start + k}`)));
  }
}

/** A formed cluster (keys loaded) and admin connections to shard 0's primary (the source) and shard 2's (the target), with their ids. */
async function formedWithMovingPair() {
  await formed();
  const [p0, , p2] = shards.map((x) => x.primary);
  const a0 = await admin(p0!.host, p0!.port);
  const a2 = await admin(p2!.host, p2!.port);
  return { p0: p0!, p2: p2!, a0, a2, id0: String(await a0.call('CLUSTER', 'MYID')), id2: String(await a2.call('CLUSTER', 'MYID')) };
}

/** Every slot owned by exactly one live primary and none open; the key count. */
async function settled(live: { host: string; port: number }[]): Promise<{ owned: number; open: number; keys: number }> {
  let owned = 0;
  let open = 0;
  let keys = 0;
  for (const p of live) {
    const a = await admin(p.host, p.port);
    const text = String(await a.call('CLUSTER', 'NODES'));
    const me = parseClusterNodes(text).find((n) => n.myself)!;
    owned += me.slots.reduce((n, r) => n + r.end - r.start + 1, 0);
    open += parseOpenSlots(text, me.id).length;
    keys += Number(await a.dbsize());
  }
  return { owned, open, keys };
}

/** 6 primaries (no replicas) on the same hosts, ports 7210 and 7211: a 6 -> 3 scale-in moves every slot of the last three to the first three. */
const SIX = [7210, 7211].flatMap((port) => HOSTS.map((host) => ({ host, port })));
const sixSlots = planSlots(6);
/** As Strata plans it: the kept primaries only take slots, the removed ones only give (a primary both giving and taking at once can lose a claim to its own epoch bump). */
const threeSlots = planSlotTargets(sixSlots.map((r) => [r]), 3).target;

describe('migrateSlots on real redis-server processes', () => {
  it('6 -> 3 primaries: the last three give every slot to the first three under a writer, no key lost, the sources end empty', async () => {
    fleet = await startRedisFleet(SIX);
    await formCluster({ shards: SIX.map((p, i) => ({ slots: [sixSlots[i]!], primary: { instanceId: `00000000-0000-4000-8000-00000000002${i}`, ...p }, replicas: [] })), ...internal });
    const c = new Cluster(SIX, { redisOptions: { username: creds.customerUser, password: creds.customerPassword }, retryDelayOnMoved: 0, retryDelayOnTryAgain: 20, maxRedirections: 64 });
    c.on('error', () => {});
    closers.push(() => c.disconnect());
    for (let start = 0; start < KEYS; start += 1000) await Promise.all(Array.from({ length: 1000 }, (_, k) => c.set(`k:${start + k}`, `v${start + k}`)));
    // Without replicas WAIT 1 never confirms: every write counts as "either value", the key count must still hold.
    const writer = new AckedWriter(c).start();
    const r = await migrateSlots({ targets: SIX.slice(0, 3).map((p, i) => ({ ...p, slots: threeSlots[i]! })), primaries: SIX, ...internal });
    await writer.stop();
    expect(r.complete).toBe(true);
    expect(await writer.wrong(c)).toEqual([]);
    expect(await settled(SIX)).toEqual({ owned: 16384, open: 0, keys: KEYS });
    for (const p of SIX.slice(3)) expect(Number(await (await admin(p.host, p.port)).dbsize())).toBe(0);
    expect(r.final!.filter((f) => SIX.slice(3).some((p) => p.port === f.port && p.host === f.host)).map((f) => f.slotsOwned)).toEqual([0, 0, 0]);
  }, 60_000);


  it('moves slots under a WAIT 1 writer: every acknowledged write kept, nothing left on the source', async () => {
    await formed();
    const writer = new AckedWriter(appClient()).start();
    await new Promise((r) => setTimeout(r, 200));
    const logs: string[] = [];
    const r = await migrateSlots({ targets: [{ ...primaries[2]!, slots: [MOVING] }], primaries, ...internal, log: (m) => logs.push(m) });
    await writer.stop();
    expect(r.complete).toBe(true);
    expect(r.slotsMoved).toBe(1500);
    expect(r.keysMoved).toBeGreaterThan(1000);
    expect(await writer.wrong(appClient())).toEqual([]);
    expect(await settled(primaries)).toEqual({ owned: 16384, open: 0, keys: KEYS });
    const source = await admin(primaries[0]!.host, primaries[0]!.port);
    for (let s = MOVING.start; s <= MOVING.end; s += 97) expect(Number(await source.call('CLUSTER', 'COUNTKEYSINSLOT', String(s)))).toBe(0);
    console.log(`${writer.writes} acknowledged writes during the move; ${logs.at(-1)}`);
  }, 60_000);

  it(`kill -9 of the importing primary mid-move (${RUNS} run(s)): its replica takes over, the move finishes, no acknowledged write lost`, async () => {
    const outcomes: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      await formed();
      const writer = new AckedWriter(appClient()).start();
      let done = 0;
      let ended = false;
      const victim = fleet!.servers.find((s) => s.host === primaries[2]!.host && s.port === 7200)!;
      const victimId = String(await (await admin(victim.host, victim.port)).call('CLUSTER', 'MYID'));
      // Small rounds: the move lasts long enough to be caught in the middle.
      const first = migrateSlots({
        targets: [{ ...primaries[2]!, slots: [MOVING] }], primaries, ...internal, pace: { slotsPerRound: 8 },
        onProgress: (p) => { done = p.slotsDone; },
      }).then(() => 'finished before the kill', (err: Error) => `failed: ${err.message}`).finally(() => { ended = true; });
      const killAfter = 200 + Math.floor(Math.random() * 600);
      while (done < killAfter && !ended) await new Promise((r) => setTimeout(r, 5));
      expect(ended, 'the move ended before the kill').toBe(false);
      process.kill(victim.pid, 'SIGKILL');
      const outcome = await first;
      // Strata promotes a new shard's replica at once; TAKEOVER needs no vote.
      const replica = await admin(HOSTS[0]!, 7201);
      await replica.call('CLUSTER', 'FAILOVER', 'TAKEOVER');
      while (((await replica.call('ROLE')) as string[])[0] !== 'master') await new Promise((r) => setTimeout(r, 20));
      const live = [primaries[0]!, primaries[1]!, { host: HOSTS[0]!, port: 7201 }];
      let second;
      for (let attempt = 1; ; attempt++) {
        try {
          // shardEngineIds: a slot the victim claimed just before it died, before its replica heard, is claimed by the replica.
          second = await migrateSlots({ targets: [{ host: HOSTS[0]!, port: 7201, slots: [MOVING], shardEngineIds: [victimId] }], primaries: live, ...internal });
          break;
        } catch (err) {
          // The others may not have heard of the promotion yet (gossip); the control plane retries the same way.
          if (attempt === 5) throw err;
          await new Promise((r) => setTimeout(r, 500 * attempt));
        }
      }
      await writer.stop();
      expect(second.complete).toBe(true);
      const wrong = await writer.wrong(appClient());
      const state = await settled(live);
      outcomes.push(`run ${run}: killed after ${killAfter} slots (${outcome}); ${writer.writes} acknowledged writes, ${wrong.length} wrong, ${KEYS - state.keys} keys missing`);
      expect(wrong).toEqual([]);
      expect(state).toEqual({ owned: 16384, open: 0, keys: KEYS });
      for (const c of closers.splice(0)) c();
      await fleet!.stop();
      fleet = undefined;
    }
    console.log(`${outcomes.join('\n')}\n${RUNS} of ${RUNS} runs: 0 acknowledged writes lost`);
  }, 60_000 + RUNS * 30_000);
  it("with the target's replica frozen a move fails and the source keeps every key; slots an earlier run left MIGRATING finish the way redis-cli moves them, a key rewritten with WAIT 1 all along keeping its last acknowledged value", async () => {
    const { a0, a2, id0, id2 } = await formedWithMovingPair();
    const countOn = async (range: { start: number; end: number }) => {
      let n = 0;
      for (let s = range.start; s <= range.end; s++) n += Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(s)));
      return n;
    };
    // The target's replica stops answering: no copy can be confirmed, so the source must keep every key.
    const frozen = { start: MOVING.start, end: MOVING.start + 99 };
    const before = await countOn(frozen);
    expect(before).toBeGreaterThan(50);
    const replica = fleet!.servers.find((x) => x.host === HOSTS[0] && x.port === 7201)!;
    process.kill(replica.pid, 'SIGSTOP');
    const t0 = Date.now();
    let first: string;
    try {
      first = await migrateSlots({ targets: [{ ...primaries[2]!, slots: [frozen] }], primaries, ...internal, waitReplicaMs: 1000 })
        .then(() => 'completed', (err: Error) => err.message);
    } finally {
      process.kill(replica.pid, 'SIGCONT');
    }
    console.log(`frozen replica: the move ended after ${Date.now() - t0} ms: ${first}`);
    expect(first).toMatch(/no replica of .* confirmed the copied keys/);
    expect(await countOn(frozen)).toBe(before);

    // Slots an earlier run left MIGRATING (source MIGRATING, target IMPORTING) finish the classic way.
    const open = { start: MOVING.start + 100, end: MOVING.start + 299 };
    for (let s = open.start; s <= open.end; s++) {
      await a2.call('CLUSTER', 'SETSLOT', String(s), 'IMPORTING', id0);
      await a0.call('CLUSTER', 'SETSLOT', String(s), 'MIGRATING', id2);
    }
    expect(await countOn(open)).toBeGreaterThan(100);
    const c = appClient();
    const hot = (await a0.call('CLUSTER', 'GETKEYSINSLOT', String(open.start), '1')) as string[];
    const hotKey = hot[0] ?? `{${open.start}}`;
    let acked = -1;
    let stop = false;
    const rewriting = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await c.pipeline().set(hotKey, `h${i}`).call('WAIT', '1', '500').exec().catch(() => null);
        if (res && !res[0]![0] && Number(res[1]![1]) >= 1) acked = i;
      }
    })();
    const r = await migrateSlots({ targets: [{ ...primaries[2]!, slots: [frozen, open] }], primaries, ...internal });
    stop = true;
    await rewriting;
    expect(r.complete).toBe(true);
    expect(await countOn(frozen)).toBe(0);
    expect(await countOn(open)).toBe(0);
    expect(acked).toBeGreaterThan(0);
    expect(await c.get(hotKey)).toMatch(new RegExp(`^h(${acked}|${acked + 1})$`));
    expect(await settled(primaries)).toEqual({ owned: 16384, open: 0, keys: KEYS + (hot.length ? 0 : 1) });
    for (let start = 0; start < KEYS; start += 1000) {
      const values = await Promise.all(Array.from({ length: 1000 }, (_, k) => c.get(`k:${start + k}`)));
      values.forEach((v, k) => { if (`k:${start + k}` !== hotKey) expect(v, `k:${start + k}`).toBe(`v${start + k}`); });
    }
  }, 60_000);

  it("a repair that stopped half-way (owner set STABLE, the handed-over keys not moved back yet) is finished by the next one: those keys go back to the owner, none is dropped", async () => {
    const { p2, a0, a2, id0, id2 } = await formedWithMovingPair();
    // The first slots of shard 0 holding keys.
    const moved: number[] = [];
    for (let slot = slots[0]!.start; moved.length < 5; slot++) if (Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot))) > 0) moved.push(slot);
    let keys = 0;
    for (const slot of moved) {
      // Handed over to shard 2 (the keys now only there), then the owner set STABLE by a repair that failed next.
      await a2.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', id0);
      await a0.call('CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', id2);
      const ks = (await a0.call('CLUSTER', 'GETKEYSINSLOT', String(slot), '1000')) as string[];
      keys += ks.length;
      await a0.call('MIGRATE', p2.host, String(p2.port), '', '0', '5000', 'AUTH2', internal.username, internal.password, 'KEYS', ...ks);
      await a0.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
    }
    expect(keys).toBeGreaterThan(0);
    const repaired = await repairOpenSlots({ primaries, ...internal });
    expect(repaired.map((r) => r.slot).sort((a, b) => a - b)).toEqual(moved);
    let back = 0;
    for (const slot of moved) back += Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot)));
    expect(back).toBe(keys);
    expect(await settled(primaries)).toEqual({ owned: 16384, open: 0, keys: KEYS });
    const c = appClient();
    for (let i = 0; i < KEYS; i += 2000) expect(await c.get(`k:${i}`)).toBe(`v${i}`);
  }, 60_000);

  it("a target's promoted replica holding handed-over keys with no mark and no claim (its primary died with them): the next run keeps them, takes the owner's newer writes, and finishes the move", async () => {
    const { p2, a0, a2, id0, id2 } = await formedWithMovingPair();
    const moved: number[] = [];
    for (let slot = MOVING.start; moved.length < 5; slot++) if (Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot))) > 0) moved.push(slot);
    const handed: string[] = [];
    for (const slot of moved) {
      // Handed over to shard 2 (the source's keys deleted), then the marks gone as when the target primary died and
      // its replica took over (marks are not replicated) and the source's slot state went with a failover too.
      await a2.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', id0);
      await a0.call('CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', id2);
      const ks = (await a0.call('CLUSTER', 'GETKEYSINSLOT', String(slot), '1000')) as string[];
      handed.push(...ks);
      await a0.call('MIGRATE', p2.host, String(p2.port), '', '0', '5000', 'AUTH2', internal.username, internal.password, 'KEYS', ...ks);
      await a2.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
      await a0.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
    }
    expect(handed.length).toBeGreaterThan(0);
    // The owner serves the slot alone meanwhile: a client rewrote one of the keys there (the newer value).
    const rewritten = handed[0]!;
    await appClient().set(rewritten, 'newer');
    expect(Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(moved[0])))).toBe(1);
    const logs: string[] = [];
    const r = await migrateSlots({ targets: [{ ...primaries[2]!, slots: [MOVING] }], primaries, ...internal, log: (m) => logs.push(m) });
    expect(r.complete).toBe(true);
    expect(await settled(primaries)).toEqual({ owned: 16384, open: 0, keys: KEYS });
    const c = appClient();
    for (const k of handed) expect(await c.get(k)).toBe(k === rewritten ? 'newer' : `v${k.slice(2)}`);
    expect(logs.join('\n')).toMatch(/5 slot\(s\) whose keys a target holds without owning them or marking them/);
  }, 60_000);
  it("an open slot owned only by a dead target primary (its promoted replica never owned it): the next run has the replica claim it before repairing open slots, and finishes with every key", async () => {
    const { p2, a0, a2, id0, id2 } = await formedWithMovingPair();
    let slot = MOVING.start;
    while (Number(await a0.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot))) === 0) slot++;
    // The slot's keys handed over to shard 2's primary (the source's copies deleted), and its replica has them.
    await a2.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', id0);
    await a0.call('CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', id2);
    const ks = (await a0.call('CLUSTER', 'GETKEYSINSLOT', String(slot), '1000')) as string[];
    await a0.call('MIGRATE', p2.host, String(p2.port), '', '0', '5000', 'AUTH2', internal.username, internal.password, 'KEYS', ...ks);
    expect(Number(await a2.call('WAIT', '1', '2000'))).toBe(1);
    // The source gives the slot to the target (its side of the handover), but the target dies before claiming it:
    // its replica, promoted, never owned it. The source alone says the dead target owns it, and a member still marks
    // it open (importing it from the source, as a move that began again would).
    const replica = fleet!.servers.find((x) => x.host === HOSTS[0] && x.port === 7201)!;
    const victim = fleet!.servers.find((x) => x.host === p2.host && x.port === p2.port)!;
    await a0.call('CLUSTER', 'SETSLOT', String(slot), 'NODE', id2);
    process.kill(victim.pid, 'SIGKILL');
    const promoted = await admin(replica.host, replica.port);
    await promoted.call('CLUSTER', 'FAILOVER', 'TAKEOVER');
    while (((await promoted.call('ROLE')) as string[])[0] !== 'master') await new Promise((r) => setTimeout(r, 20));
    await promoted.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', id0);
    const live = [primaries[0]!, primaries[1]!, { host: replica.host, port: replica.port }];
    for (const m of live) {
      const me = parseClusterNodes(String(await (await admin(m.host, m.port)).call('CLUSTER', 'NODES'))).find((n) => n.myself)!;
      expect(me.slots.some((r) => r.start <= slot && slot <= r.end), `${m.host}:${m.port} owns ${slot}`).toBe(false);
    }
    expect(parseClusterNodes(String(await a0.call('CLUSTER', 'NODES'))).find((n) => n.slots.some((r) => r.start <= slot && slot <= r.end))?.id).toBe(id2);

    const logs: string[] = [];
    const r = await migrateSlots({ targets: [{ host: replica.host, port: replica.port, slots: [MOVING], shardEngineIds: [id2] }], primaries: live, ...internal, log: (m) => logs.push(m) });
    expect(r.complete).toBe(true);
    expect(logs.join('\n')).toMatch(/1 slot\(s\) claimed only by a dead former primary/);
    expect(await settled(live)).toEqual({ owned: 16384, open: 0, keys: KEYS });
    const c = appClient();
    for (const k of ks) expect(await c.get(k)).toBe(`v${k.slice(2)}`);
  }, 60_000);
});
