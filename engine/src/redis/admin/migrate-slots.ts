/**
 * Live slot migration toward a wanted slot map. Idempotent and resumable:
 * it first closes any slot left open (an interrupted run), then moves every
 * slot whose owner differs from the wanted one, in rounds per
 * (source, target) pair: SETSLOT IMPORTING / MIGRATING for a batch of
 * slots (pipelined), GETKEYSINSLOT + MIGRATE ... REPLACE KEYS for all of
 * them (pipelined, many keys per call), then SETSLOT NODE on the target,
 * the source and every other primary. Pairs run in parallel. It stops early
 * only between rounds, so every slot always has exactly one owner.
 */
import type { Redis } from 'ioredis';
import type { MigrationProgress, SlotRange } from '../../domain';
import { AdminConnectionPool } from './admin-connection';
import { countSlots, parseClusterNodes, parseInfo, parseOpenSlots } from './cluster-reply.parser';
import { repairOpenSlots } from './repair-slots';

export interface MigrateSlotsOptions {
  /** Per target: the slots it should own, and the Redis ids of its shard's other instances (see step 2). */
  targets: { host: string; port: number; slots: SlotRange[]; shardEngineIds?: string[] }[];
  /** Every primary of the cluster (final SETSLOT NODE goes to each). */
  primaries: { host: string; port: number }[];
  username: string;
  password: string;
  /** Keys per MIGRATE call (default 1000). */
  batchKeys?: number;
  /** Slots opened together per pair and round (default 128). */
  slotsPerRound?: number;
  /** MIGRATE calls sent together (default 32; 8 took 1.4x as long in bench:reshard, 64 gained nothing): fewer keep the application's latency lower during the move. */
  migratesPerPipeline?: number;
  onProgress?: (p: MigrationProgress) => void;
  /** Asked between rounds: true stops early (the round in flight is closed first). */
  shouldStop?: () => boolean;
  log?: (msg: string) => void;
}

export interface MigrateSlotsResult {
  complete: boolean;
  slotsMoved: number;
  keysMoved: number;
  bytesMoved: number;
  /**
   * Each member's own view read after the last slot closed (complete runs
   * only): the slots it owns and the slots it still marks importing or
   * migrating. Lets the caller see the end state without waiting for every
   * node's next status report.
   */
  final?: { host: string; port: number; slotsOwned: number; openSlots: number }[];
}

interface Member { host: string; port: number; client: Redis; id: string }

const key = (m: { host: string; port: number }) => `${m.host}:${m.port}`;

const INTRODUCE_WAIT_MS = 5000;

/**
 * Every primary must know every other by id before SETSLOT names it ("ERR I
 * don't know about node"). Gossip spreads a node that joined lately (a
 * replica promoted during the move) in seconds, sometimes in more than ten:
 * a primary that has not heard of another meets it directly and the move
 * waits (bounded) until it knows it.
 */
async function introduce(members: Member[], known: Map<Member, Set<string>>, log: (msg: string) => void): Promise<void> {
  const missing = members.flatMap((a) => members.filter((b) => b !== a && !known.get(a)!.has(b.id)).map((b) => ({ a, b })));
  if (!missing.length) return;
  for (const { a, b } of missing) {
    await a.client.call('CLUSTER', 'MEET', b.host, String(b.port));
    log(`${a.host}:${a.port} did not know ${b.host}:${b.port} yet: introduced with CLUSTER MEET`);
  }
  const deadline = Date.now() + INTRODUCE_WAIT_MS;
  for (const { a, b } of missing) {
    while (!parseClusterNodes(String(await a.client.call('CLUSTER', 'NODES'))).some((n) => n.id === b.id)) {
      if (Date.now() > deadline) throw new Error(`${a.host}:${a.port} still does not know ${b.host}:${b.port} ${INTRODUCE_WAIT_MS / 1000} s after CLUSTER MEET`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function migrateSlots(opts: MigrateSlotsOptions): Promise<MigrateSlotsResult> {
  const log = opts.log ?? (() => {});
  const batchKeys = opts.batchKeys ?? 1000;
  const perRound = opts.slotsPerRound ?? 128;
  const migratesPerPipeline = opts.migratesPerPipeline ?? 32;
  const all = new Map<string, { host: string; port: number }>();
  for (const m of [...opts.primaries, ...opts.targets]) all.set(key(m), { host: m.host, port: m.port });

  // 1. Slots an interrupted run left open: moving toward their target they stay open (importing from the live owner);
  //    otherwise closed (keys go back to the slot's owner).
  const pool = new AdminConnectionPool({ username: opts.username, password: opts.password }, 10_000);
  try {
    const members = new Map<string, Member>();
    const known = new Map<Member, Set<string>>();
    let anyOpen = false;
    for (const m of all.values()) {
      const client = await pool.get(m.host, m.port);
      const text = String(await client.call('CLUSTER', 'NODES'));
      const nodes = parseClusterNodes(text);
      const myself = nodes.find((n) => n.myself)!;
      if (parseOpenSlots(text, myself.id).length) anyOpen = true;
      const member = { ...m, client, id: myself.id };
      members.set(key(m), member);
      known.set(member, new Set(nodes.map((n) => n.id)));
    }
    await introduce([...members.values()], known, log);
    if (anyOpen) {
      const dest = new Map<number, { host: string; port: number }>();
      for (const t of opts.targets) for (const r of t.slots) for (let s = r.start; s <= r.end; s++) dest.set(s, t);
      const repaired = await repairOpenSlots({ primaries: [...all.values()], username: opts.username, password: opts.password, log, movingTo: (s) => dest.get(s) });
      log(`${repaired.length} slot(s) left open by an earlier run: closed, or left moving toward their target`);
    }

    // 2. Who owns what now: each primary's own claim; a double claim (gossip in flight) goes to the higher epoch.
    const owner = new Array<Member | null>(16384).fill(null);
    const epochOf = new Array<number>(16384).fill(-1);
    const viewOf = new Map<Member, ReturnType<typeof parseClusterNodes>>();
    for (const m of members.values()) {
      const nodes = parseClusterNodes(String(await m.client.call('CLUSTER', 'NODES')));
      viewOf.set(m, nodes);
      const me = nodes.find((n) => n.myself)!;
      for (const r of me.slots) for (let s = r.start; s <= r.end; s++) {
        if (me.configEpoch > epochOf[s]!) { owner[s] = m; epochOf[s] = me.configEpoch; }
      }
    }
    // A slot no live primary claims, that the others say belongs to a (dead) former primary of the shard it is
    // wanted in: that primary died just after claiming it, before its replica (now promoted) heard of it. Redis
    // leaves such a slot uncovered (cluster_state:fail everywhere); the replica holds its keys: it claims it.
    const claimedBy = new Map<number, string>();
    for (const nodes of viewOf.values()) {
      for (const n of nodes) {
        if (n.myself) continue;
        for (const r of n.slots) for (let s = r.start; s <= r.end; s++) if (!owner[s]) claimedBy.set(s, n.id);
      }
    }
    for (const t of opts.targets) {
      const to = members.get(key(t))!;
      const orphans: number[] = [];
      for (const r of t.slots) for (let s = r.start; s <= r.end; s++) {
        if (!owner[s] && t.shardEngineIds?.includes(claimedBy.get(s) ?? '')) orphans.push(s);
      }
      if (!orphans.length) continue;
      await exec(to.client, orphans.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]));
      await Promise.all([...members.values()].filter((m) => m !== to)
        .map((m) => exec(m.client, orphans.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]))));
      for (const s of orphans) owner[s] = to;
      log(`${orphans.length} slot(s) claimed only by a dead former primary of ${to.host}:${to.port}'s shard: now its own`);
    }
    const pairs = new Map<string, { from: Member; to: Member; slots: number[] }>();
    for (const t of opts.targets) {
      const to = members.get(key(t))!;
      for (const r of t.slots) for (let s = r.start; s <= r.end; s++) {
        const from = owner[s];
        if (!from) throw new Error(`slot ${s} has no owner among the primaries`);
        if (from === to) continue;
        const k = `${from.id}>${to.id}`;
        const p = pairs.get(k) ?? { from, to, slots: [] };
        p.slots.push(s);
        pairs.set(k, p);
      }
    }
    const slotsTotal = [...pairs.values()].reduce((n, p) => n + p.slots.length, 0);
    log(`${slotsTotal} slot(s) to move in ${pairs.size} pair(s)`);

    // Approximate bytes per key from each source's used memory and key count.
    const bytesPerKey = new Map<string, number>();
    for (const p of pairs.values()) {
      if (bytesPerKey.has(p.from.id)) continue;
      const info = parseInfo(String(await p.from.client.call('INFO', 'memory')));
      const ks = parseInfo(String(await p.from.client.call('INFO', 'keyspace')));
      const keys = Number(/keys=(\d+)/.exec(ks.db0 ?? '')?.[1] ?? 0);
      const dataset = Number(info.used_memory_dataset ?? info.used_memory ?? 0);
      bytesPerKey.set(p.from.id, keys ? dataset / keys : 0);
    }

    const others = [...members.values()];
    const stats = { slotsDone: 0, keysMoved: 0, bytesMoved: 0, currentSlot: null as number | null };
    const started = Date.now();
    const window: { at: number; keys: number }[] = [{ at: started, keys: 0 }];
    let lastReport = 0;
    const report = (force = false) => {
      const now = Date.now();
      if (!force && now - lastReport < 250) return;
      lastReport = now;
      window.push({ at: now, keys: stats.keysMoved });
      while (window.length > 2 && now - window[0]!.at > 5000) window.shift();
      const first = window[0]!;
      const keysPerSec = now > first.at ? ((stats.keysMoved - first.keys) * 1000) / (now - first.at) : 0;
      const slotsPerSec = now > started ? (stats.slotsDone * 1000) / (now - started) : 0;
      opts.onProgress?.({
        slotsDone: stats.slotsDone, slotsTotal, keysMoved: stats.keysMoved, bytesMoved: Math.round(stats.bytesMoved),
        keysPerSec: Math.round(keysPerSec), etaSeconds: slotsPerSec > 0 ? Math.round(((slotsTotal - stats.slotsDone) / slotsPerSec) * 10) / 10 : null,
        currentSlot: stats.currentSlot,
      });
    };
    report(true);

    let stopped = false;
    // Where the time goes, summed over pairs (logged at the end).
    const spent = { open: 0, getkeys: 0, migrate: 0, close: 0 };
    const timed = async <T>(phase: keyof typeof spent, f: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try { return await f(); } finally { spent[phase] += performance.now() - t0; }
    };
    const runPair = async (p: { from: Member; to: Member; slots: number[] }) => {
      const auth = ['AUTH2', opts.username, opts.password];
      for (let i = 0; i < p.slots.length; i += perRound) {
        if (stopped || opts.shouldStop?.()) { stopped = true; return; }
        const round = p.slots.slice(i, i + perRound);
        stats.currentSlot = round[0]!;
        await timed('open', async () => {
          await exec(p.to.client, round.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'IMPORTING', p.from.id]));
          await exec(p.from.client, round.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'MIGRATING', p.to.id]));
        });
        let pending = round;
        while (pending.length) {
          const keyLists = (await timed('getkeys', () => exec(p.from.client, pending.map((s) => ['CLUSTER', 'GETKEYSINSLOT', String(s), String(batchKeys)])))) as string[][];
          const withKeys = pending.map((s, j) => ({ s, keys: keyLists[j]! })).filter((x) => x.keys.length);
          if (withKeys.length) {
            // A few MIGRATEs per pipeline: each blocks the source while it runs, and the
            // application's commands get served between pipelines.
            await timed('migrate', async () => {
              for (let k = 0; k < withKeys.length; k += migratesPerPipeline) {
                await exec(p.from.client, withKeys.slice(k, k + migratesPerPipeline)
                  .map((x) => ['MIGRATE', p.to.host, String(p.to.port), '', '0', '10000', 'REPLACE', ...auth, 'KEYS', ...x.keys]));
              }
            });
            const moved = withKeys.reduce((n, x) => n + x.keys.length, 0);
            stats.keysMoved += moved;
            stats.bytesMoved += moved * (bytesPerKey.get(p.from.id) ?? 0);
          }
          // A slot whose last GETKEYSINSLOT came back short is empty now (new keys go to the target via ASK).
          pending = withKeys.filter((x) => x.keys.length >= batchKeys).map((x) => x.s);
          report();
        }
        // Target first (it bumps its epoch and claims the slots), then the source and everyone else together:
        // once the target owns the slots, any member pointing clients at it is right. (Each pipeline costs a
        // nodes.conf save + fsync on its member: one round trip fewer per round.)
        await timed('close', async () => {
          await exec(p.to.client, round.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', p.to.id]));
          await Promise.all(others.filter((m) => m !== p.to)
            .map((m) => exec(m.client, round.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', p.to.id]))));
        });
        stats.slotsDone += round.length;
        report();
      }
    };
    await Promise.all([...pairs.values()].map(runPair));
    stats.currentSlot = null;
    report(true);
    const complete = !stopped;
    const final = complete
      ? await Promise.all([...members.values()].map(async (m) => {
        const text = String(await m.client.call('CLUSTER', 'NODES'));
        const me = parseClusterNodes(text).find((n) => n.myself)!;
        return { host: m.host, port: m.port, slotsOwned: countSlots(me.slots), openSlots: parseOpenSlots(text, me.id).length };
      }))
      : undefined;
    log(`${complete ? 'migration complete' : 'migration stopped early'}: ${stats.slotsDone}/${slotsTotal} slots, ${stats.keysMoved} keys in ${Date.now() - started} ms`
      + ` (summed over ${pairs.size} pair(s): open ${Math.round(spent.open)} ms, GETKEYSINSLOT ${Math.round(spent.getkeys)} ms, MIGRATE ${Math.round(spent.migrate)} ms, SETSLOT NODE ${Math.round(spent.close)} ms)`);
    return { complete, slotsMoved: stats.slotsDone, keysMoved: stats.keysMoved, bytesMoved: Math.round(stats.bytesMoved), final };
  } finally {
    await pool.closeAll();
  }
}

/** Sends commands in one pipeline; throws the first error. */
async function exec(client: Redis, commands: string[][]): Promise<unknown[]> {
  if (!commands.length) return [];
  const pl = client.pipeline();
  for (const [name, ...args] of commands) pl.call(name!, ...args);
  const res = await pl.exec();
  return (res ?? []).map(([err, v], i) => {
    if (err) throw new Error(`${commands[i]!.slice(0, 4).join(' ')}: ${err.message}`);
    return v;
  });
}
