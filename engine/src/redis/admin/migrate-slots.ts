/**
 * Live slot migration toward a wanted slot map. Idempotent and resumable:
 * it first deals with slots an interrupted run left open, then moves every
 * slot whose owner differs from the wanted one, per (source, target) pair
 * (slot-move.ts: keys copied while the source still serves them, the
 * target's replica confirming the copies, then an atomic handover on the
 * source), in rounds paced to the migration priority. It stops early only
 * between rounds, so every slot always has exactly one owner.
 *
 * A primary must not give and take slots in the same run (Strata's plans
 * never ask it): its epoch bump when it claims a slot could win back, in
 * everyone's view, slots it is handing over at that moment.
 */
import type { Redis } from 'ioredis';
import type { MigrationPriority, MigrationProgress, SlotRange } from '../../domain';
import { compressSlots } from '../topology.planner';
import { BatchPacer, DEFAULT_MIGRATION_PRIORITY, MIGRATION_PACES, type MigrationPace } from '../migration-pace';
import { AdminConnectionPool, type AdminLogin } from './admin-connection';
import { BulkRestoreConnection } from './bulk-restore.connection';
import { countSlots, parseClusterNodes, parseInfo, parseOpenSlots, slotOwners } from './cluster-reply.parser';
import { repairOpenSlots, untilClusterOk } from './repair-slots';
import { exec, movePair, type PairContext, type Phase } from './slot-move';
import { loadSlotMoveScripts } from './slot-move.scripts';

export interface MigrateSlotsOptions {
  /** Per target: the slots it should own, and the Redis ids of its shard's other instances (see step 2). */
  targets: { host: string; port: number; slots: SlotRange[]; shardEngineIds?: string[] }[];
  /** Every primary of the cluster (final SETSLOT NODE goes to each). */
  primaries: { host: string; port: number }[];
  username: string;
  password: string;
  /** TLS cluster: verify instances against this CA. */
  tls?: AdminLogin['tls'];
  /** How hard the move may press on the primaries (default balanced). */
  priority?: MigrationPriority;
  /** Overrides of the priority's pace (tests, benches). */
  pace?: Partial<MigrationPace>;
  /** How long the target's replica may take to confirm a round's copies (default 5000 ms). */
  waitReplicaMs?: number;
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

/**
 * Slots a target is to own that it does not own, yet holds keys of, with no
 * mark: what the replica of a target primary that died mid-move holds once
 * promoted (the importing marks and the claim of the last slots handed over
 * die with the primary; the keys, which its replica confirmed before any
 * source let them go, do not). Those keys may be the only copies (the source
 * deleted its own at the handover), so the slots are repaired as if open:
 * the target imports them from their owner again, keeps its keys, and takes
 * the owner's (newer) ones. Left alone they would be invisible, and lost.
 */
async function unmarkedHolderSlots(targets: Member[], dest: Map<number, { host: string; port: number }>): Promise<number[]> {
  const out: number[] = [];
  for (const t of targets) {
    const text = String(await t.client.call('CLUSTER', 'NODES'));
    const me = parseClusterNodes(text).find((n) => n.myself)!;
    const owned = new Set(me.slots.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, (_, i) => r.start + i)));
    const marked = new Set(parseOpenSlots(text, me.id).map((o) => o.slot));
    const candidates = [...dest].filter(([s, d]) => d.host === t.host && d.port === t.port && !owned.has(s) && !marked.has(s)).map(([s]) => s);
    if (!candidates.length) continue;
    const counts = (await exec(t.client, candidates.map((s) => ['CLUSTER', 'COUNTKEYSINSLOT', String(s)]))) as number[];
    candidates.forEach((s, i) => { if (Number(counts[i]) > 0) out.push(s); });
  }
  return out.sort((a, b) => a - b);
}

/**
 * A slot no live primary claims, that the others say belongs to a (dead) former primary of the shard it is wanted in:
 * that primary died just after claiming it, before its replica (now promoted) heard of it. Redis leaves such a slot
 * uncovered (cluster_state:fail everywhere), and a member may still mark it migrating to the dead one; the replica
 * holds its keys (a source lets keys go only once the target's replica has them): it claims it. Done before open
 * slots are repaired, which need an owner for every open slot.
 */
async function claimOrphanSlots(members: Member[], targets: MigrateSlotsOptions['targets'], memberOf: (t: { host: string; port: number }) => Member, log: (msg: string) => void): Promise<void> {
  const views = await Promise.all(members.map(async (m) => ({ m, nodes: parseClusterNodes(String(await m.client.call('CLUSTER', 'NODES'))) })));
  const owner = slotOwners(views.map(({ m, nodes }) => {
    const me = nodes.find((n) => n.myself)!;
    return { of: m, slots: me.slots, configEpoch: me.configEpoch };
  }));
  const claimedBy = new Map<number, Set<string>>();
  for (const { nodes } of views) {
    for (const n of nodes) {
      if (n.myself) continue;
      for (const r of n.slots) for (let s = r.start; s <= r.end; s++) {
        if (!owner[s]) claimedBy.set(s, (claimedBy.get(s) ?? new Set()).add(n.id));
      }
    }
  }
  for (const t of targets) {
    const to = memberOf(t);
    const orphans: number[] = [];
    for (const r of t.slots) for (let s = r.start; s <= r.end; s++) {
      if (!owner[s] && [...(claimedBy.get(s) ?? [])].some((id) => t.shardEngineIds?.includes(id))) orphans.push(s);
    }
    if (!orphans.length) continue;
    await exec(to.client, orphans.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]));
    await Promise.all(members.filter((m) => m !== to).map((m) => exec(m.client, orphans.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]))));
    log(`${orphans.length} slot(s) claimed only by a dead former primary of ${to.host}:${to.port}'s shard: now its own`);
  }
}

export async function migrateSlots(opts: MigrateSlotsOptions): Promise<MigrateSlotsResult> {
  const log = opts.log ?? (() => {});
  const pace: MigrationPace = { ...MIGRATION_PACES[opts.priority ?? DEFAULT_MIGRATION_PRIORITY], ...opts.pace };
  const all = new Map<string, { host: string; port: number }>();
  for (const m of [...opts.primaries, ...opts.targets]) all.set(key(m), { host: m.host, port: m.port });

  // 1. Slots an interrupted run left open: moving toward their target they stay open (importing from the live owner);
  //    otherwise closed (keys go back to the slot's owner).
  const pool = new AdminConnectionPool({ username: opts.username, password: opts.password, tls: opts.tls }, 10_000);
  let closeRestorers = () => {};
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
    await claimOrphanSlots([...members.values()], opts.targets, (t) => members.get(key(t))!, log);
    const dest = new Map<number, { host: string; port: number }>();
    for (const t of opts.targets) for (const r of t.slots) for (let s = r.start; s <= r.end; s++) dest.set(s, t);
    const unmarked = await unmarkedHolderSlots(opts.targets.map((t) => members.get(key(t))!), dest);
    if (unmarked.length) log(`${unmarked.length} slot(s) whose keys a target holds without owning them or marking them (a target primary died mid-move, its replica took over): ${compressSlots(unmarked).map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(',')}`);
    if (anyOpen || unmarked.length) {
      const repaired = await repairOpenSlots({ primaries: [...all.values()], username: opts.username, password: opts.password, tls: opts.tls, log, movingTo: (s) => dest.get(s), alsoSlots: unmarked });
      log(`${repaired.length} slot(s) left open by an earlier run: closed, or left moving toward their target`);
    }

    // 2. Who owns what now: each primary's own claim; a double claim (gossip in flight) goes to the higher epoch.
    //    (Orphans again: the repair may have moved keys and claims.)
    await claimOrphanSlots([...members.values()], opts.targets, (t) => members.get(key(t))!, log);
    const claims: { of: Member; slots: SlotRange[]; configEpoch: number }[] = [];
    const viewOf = new Map<Member, ReturnType<typeof parseClusterNodes>>();
    const openOf = new Map<Member, ReturnType<typeof parseOpenSlots>>();
    for (const m of members.values()) {
      const text = String(await m.client.call('CLUSTER', 'NODES'));
      const nodes = parseClusterNodes(text);
      viewOf.set(m, nodes);
      openOf.set(m, parseOpenSlots(text, m.id));
      const me = nodes.find((n) => n.myself)!;
      claims.push({ of: m, slots: me.slots, configEpoch: me.configEpoch });
    }
    const owner = slotOwners(claims);
    // Keyed commands fail with CLUSTERDOWN on a member that still sees a slot uncovered (a failover, a claim that
    // gossip has not spread yet): wait a while for every member to say ok (then try anyway: the caller retries).
    await untilClusterOk([...members.values()], log);
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
    const ranges = (slots: number[]) => compressSlots(slots).map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(',');
    log(`owners: ${[...members.values()].map((m) => `${m.host}:${m.port} ${ranges(owner.flatMap((o, s) => (o === m ? [s] : [])))}`).join('; ')}`);
    log(`${slotsTotal} slot(s) to move in ${pairs.size} pair(s): ${[...pairs.values()].map((p) => `${p.from.host}:${p.from.port} -> ${p.to.host}:${p.to.port} ${ranges(p.slots)}`).join('; ')}`);

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

    // Where the time goes, summed over pairs (logged at the end).
    const spent: Record<Phase, number> = { open: 0, copy: 0, wait: 0, handover: 0, close: 0, classic: 0, rest: 0 };
    const calls: Record<Phase, number> = { open: 0, copy: 0, wait: 0, handover: 0, close: 0, classic: 0, rest: 0 };
    const timed = async <T>(phase: Phase, f: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      calls[phase]++;
      try { return await f(); } finally { spent[phase] += performance.now() - t0; }
    };
    const sources = [...new Set([...pairs.values()].map((p) => p.from))];
    await Promise.all(sources.map((m) => loadSlotMoveScripts(m.client)));
    // Each source's own probe connection: a PING there waits behind whatever the source is busy with.
    const probes = new Map<Member, Redis>();
    for (const m of sources) probes.set(m, await pool.get(m.host, m.port, 'probe'));
    const pacers = new Map(sources.map((m) => [m, new BatchPacer(pace)]));
    // Approximate bytes per key from each source's used memory and key count (progress only).
    const bytesPerKey = new Map<Member, number>();
    for (const m of sources) {
      const info = parseInfo(String(await m.client.call('INFO', 'memory')));
      const keys = Number(/keys=(\d+)/.exec(parseInfo(String(await m.client.call('INFO', 'keyspace'))).db0 ?? '')?.[1] ?? 0);
      bytesPerKey.set(m, keys ? Number(info.used_memory_dataset ?? info.used_memory ?? 0) / keys : 0);
    }
    // The target's replicas (from its own view): one of them must have every copy before a source lets keys go.
    const replicasOf = new Map<Member, { host: string; port: number }[]>();
    for (const p of pairs.values()) {
      replicasOf.set(p.to, viewOf.get(p.to)!.filter((n) => n.role === 'replica' && n.primaryId === p.to.id && !n.flags.includes('fail') && n.port > 0)
        .map((n) => ({ host: n.host, port: n.port })));
    }
    const waitReplicaMs = opts.waitReplicaMs ?? 5000;
    const confirmCopies = async (to: Member): Promise<void> => {
      const replicas = replicasOf.get(to) ?? [];
      if (!replicas.length) return;
      const mine = parseInfo(String(await to.client.call('INFO', 'replication')));
      const offset = Number(mine.master_repl_offset);
      const deadline = Date.now() + waitReplicaMs;
      // Its processed offset in the target's own stream (same replication id).
      const confirms = async (r: { host: string; port: number }, capMs: number): Promise<boolean> => {
        const asked = pool.get(r.host, r.port).then((c) => c.call('INFO', 'replication'));
        asked.catch(() => {});
        let timer: NodeJS.Timeout | undefined;
        const info = await Promise.race([asked, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), capMs); })])
          .then((t) => parseInfo(String(t)), () => null)
          .finally(() => clearTimeout(timer));
        return !!info && info.master_replid === mine.master_replid && Number(info.slave_repl_offset) >= offset;
      };
      for (;;) {
        // Every replica asked at once, each for at most 500 ms (and not past the deadline): one that stopped answering
        // (frozen, its host cut off) neither holds the move past the deadline nor keeps another from confirming.
        const capMs = Math.max(1, Math.min(500, deadline - Date.now()));
        const confirmed = await new Promise<boolean>((resolve) => {
          let pending = replicas.length;
          for (const r of replicas) {
            void confirms(r, capMs).then((ok) => {
              if (ok) resolve(true);
              else if (--pending === 0) resolve(false);
            });
          }
        });
        if (confirmed) return;
        if (Date.now() > deadline) {
          throw new Error(`no replica of ${to.host}:${to.port} confirmed the copied keys within ${waitReplicaMs} ms; the sources still hold them`);
        }
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    // One bulk restore connection per target (the copies travel through the agent, not MIGRATE: see slot-move.ts).
    const restorers = new Map<Member, BulkRestoreConnection>();
    for (const p of pairs.values()) {
      if (!restorers.has(p.to)) restorers.set(p.to, await BulkRestoreConnection.connect(p.to.host, p.to.port, opts.username, opts.password, opts.tls));
    }
    closeRestorers = () => { for (const r of restorers.values()) r.close(); };
    // At most inFlightPerSource calls per source at a time, across its pairs and their overlapping rounds.
    const slots = new Map<Member, { free: number; waiting: (() => void)[] }>(sources.map((m) => [m, { free: pace.inFlightPerSource, waiting: [] }]));
    const onSource = async <T>(m: Member, call: () => Promise<T>): Promise<T> => {
      const sem = slots.get(m)!;
      if (sem.free > 0) sem.free--;
      else await new Promise<void>((r) => sem.waiting.push(r));
      try { return await call(); } finally {
        const next = sem.waiting.shift();
        if (next) next(); else sem.free++;
      }
    };
    let stopped = false;
    const ctx: PairContext = {
      onSource: (m, call) => onSource(m as Member, call),
      restorerOf: (m) => restorers.get(m as Member)!,
      members: others, username: opts.username, password: opts.password, pace, confirmCopies: (m) => confirmCopies(m as Member),
      pacerOf: (m) => pacers.get(m as Member)!,
      probe: async (m) => { const t0 = performance.now(); await probes.get(m as Member)!.ping(); return performance.now() - t0; },
      shouldStop: () => { if (!stopped && opts.shouldStop?.()) stopped = true; return stopped; },
      onSlotStart: (slot) => { stats.currentSlot = slot; },
      onKeys: (from, keys) => { stats.keysMoved += keys; stats.bytesMoved += keys * (bytesPerKey.get(from as Member) ?? 0); report(); },
      onSlotsDone: (n) => { stats.slotsDone += n; report(); },
      log, timed,
    };
    const queue = [...pairs.values()];
    const lanes = pace.parallelPairs > 0 ? Math.min(pace.parallelPairs, queue.length) : queue.length;
    await Promise.all(Array.from({ length: lanes }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const open = new Set(openOf.get(p.from)!.filter((o) => o.state === 'migrating' && o.peerId === p!.to.id).map((o) => o.slot));
        if (!(await movePair({ ...p, open }, ctx))) return;
      }
    }));
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
      + ` (summed over ${pairs.size} pair(s), time / calls: ${Object.entries(spent).map(([k, v]) => `${k} ${Math.round(v)} ms / ${calls[k as Phase]}`).join(', ')})`);
    return { complete, slotsMoved: stats.slotsDone, keysMoved: stats.keysMoved, bytesMoved: Math.round(stats.bytesMoved), final };
  } finally {
    closeRestorers();
    await pool.closeAll();
  }
}
