/**
 * Moving slots from one primary (source) to another (target), a round of
 * slots at a time, without a window in which an acknowledged write lives
 * only on a primary that may die:
 *
 *  1. the target imports the slots; the source keeps serving them alone
 *     (no MIGRATING mark: no client is sent to the target yet);
 *  2. copies of the keys the target still holds from an earlier attempt
 *     are removed (nobody can read them: the source answers for the slot);
 *  3. the source's keys are copied: COPY (atomic on the source) reads whole
 *     slots (or a large slot's listed keys), returns their digest and the
 *     RESP-encoded RESTORE-ASKING ... REPLACE commands that recreate them,
 *     and the agent writes those to the target as they are (invisible there
 *     like step 2), one batch while the source reads the next;
 *  4. the target's replica has every copy (its processed replication offset
 *     reaches the target's, when the target has replicas);
 *  5. HANDOVER (atomic on the source) per slot: if the slot's digest is
 *     its copy's (the same keys, each unchanged), they are deleted and the
 *     slot marked MIGRATING, so clients go to the target (ASK), which has them;
 *     otherwise nothing changes and the slot goes round again;
 *  6. SETSLOT NODE on the target, then on every other primary.
 *
 * A slot whose keys keep changing under the copy (HANDOVER refused
 * HANDOVER_ATTEMPTS times) and a slot an earlier run left MIGRATING move
 * the way redis-cli moves them (MIGRATING, then MIGRATE ... REPLACE, which
 * removes each key from the source as it lands on the target).
 *
 * Each call on a primary is sized by a BatchPacer to the priority's time
 * budget; a probe (PING on its own connection) tells when a source is busy,
 * and the pair then rests. Up to `inFlightPerSource` rounds of a pair run at
 * once, and no more calls than that are in flight on a source.
 */
import type { Redis } from 'ioredis';
import { BatchPacer, type MigrationPace } from '../migration-pace';
import type { BulkRestoreConnection } from './bulk-restore.connection';
import { combineDigests, COPY_SHA, copyArgs, EMPTY_DIGEST, HANDOVER_SHA, handoverArgs, parseCopyReply, parseHandoverReply, type CopyGroup } from './slot-move.scripts';

export interface MoveMember { host: string; port: number; client: Redis; id: string }

export interface PairMove {
  from: MoveMember;
  to: MoveMember;
  /** Slots to move, in order. */
  slots: number[];
  /** Slots the source already marks MIGRATING to the target (an earlier run): they finish the classic way. */
  open: Set<number>;
}

export interface PairContext {
  /** Every primary (the final SETSLOT NODE goes to each). */
  members: MoveMember[];
  pace: MigrationPace;
  /** One per source primary: batches sized to its observed cost. */
  pacerOf: (m: MoveMember) => BatchPacer;
  /** Runs a call on a source once fewer than `inFlightPerSource` calls are in flight there. */
  onSource: <T>(m: MoveMember, call: () => Promise<T>) => Promise<T>;
  /** PING round trip to a primary on a connection of its own (ms). */
  probe: (m: MoveMember) => Promise<number>;
  /** The connection restoring copies on a target. */
  restorerOf: (m: MoveMember) => BulkRestoreConnection;
  /** Resolves once a replica of the target has everything the target has received so far (at once without replicas). */
  confirmCopies: (m: MoveMember) => Promise<void>;
  username: string;
  password: string;
  shouldStop: () => boolean;
  onSlotStart: (slot: number) => void;
  onKeys: (from: MoveMember, keys: number) => void;
  onSlotsDone: (n: number) => void;
  log: (msg: string) => void;
  timed: <T>(phase: Phase, f: () => Promise<T>) => Promise<T>;
}

export type Phase = 'open' | 'copy' | 'wait' | 'handover' | 'close' | 'classic' | 'rest';

/** HANDOVERs refused (a key changed under the copy) before a slot moves the classic way. */
export const HANDOVER_ATTEMPTS = 4;
/** Keys listed per GETKEYSINSLOT in the classic path and when clearing copies. */
const LIST_KEYS = 1000;
/** Keys a slot may hold to be listed whole for the copy (its HANDOVER digests them all in one atomic call). */
const MAX_SLOT_KEYS = 1_000_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Moves every slot of the pair; false when asked to stop (between rounds:
 * every slot keeps one owner). Up to `inFlightPerSource` rounds overlap, so
 * one round's calls run while another waits for a round trip or a replica.
 */
export async function movePair(p: PairMove, ctx: PairContext): Promise<boolean> {
  const perRound = ctx.pace.slotsPerRound;
  const reopened = p.slots.filter((s) => p.open.has(s));
  const fresh = p.slots.filter((s) => !p.open.has(s));
  for (let i = 0; i < reopened.length; i += perRound) {
    if (ctx.shouldStop()) return false;
    await moveClassic(p, reopened.slice(i, i + perRound), ctx, false);
  }
  const rounds: number[][] = [];
  for (let i = 0; i < fresh.length; i += perRound) rounds.push(fresh.slice(i, i + perRound));
  let stopped = false;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.pace.inFlightPerSource, rounds.length)) }, async () => {
    for (let round = rounds.shift(); round; round = rounds.shift()) {
      if (stopped || ctx.shouldStop()) { stopped = true; return; }
      ctx.onSlotStart(round[0]!);
      const stuck = await moveRound(p, round, ctx);
      if (stuck.length) {
        ctx.log(`${stuck.length} slot(s) from ${p.from.host}:${p.from.port} kept changing under the copy: moved with MIGRATE (${stuck.slice(0, 5).join(', ')}${stuck.length > 5 ? ', ...' : ''})`);
        await moveClassic(p, stuck, ctx, true);
      }
    }
  }));
  return !stopped;
}

/** Steps 1-6 for a round of slots; the slots whose HANDOVER kept being refused. */
async function moveRound(p: PairMove, round: number[], ctx: PairContext): Promise<number[]> {
  const { from, to } = p;
  await ctx.timed('open', () => exec(to.client, round.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'IMPORTING', from.id])));
  let pending = round;
  for (let attempt = 1; pending.length && attempt <= HANDOVER_ATTEMPTS; attempt++) {
    await clearCopies(to, pending, ctx);
    const copied = await copySlots(p, pending, ctx);
    await ctx.timed('wait', () => ctx.confirmCopies(to));
    const handed = await handOver(p, pending, copied, ctx);
    if (handed.length) {
      await close(p, handed, ctx);
      ctx.onKeys(from, handed.reduce((n, s) => n + copied.get(s)!.keys, 0));
      ctx.onSlotsDone(handed.length);
    }
    const done = new Set(handed);
    pending = pending.filter((s) => !done.has(s));
  }
  return pending;
}

/** What a slot's copy holds: the keys read and their digest (slot-move.scripts.ts). */
interface SlotCopy { keys: number; digest: string }

/**
 * Step 3: every key of the slots, copied to the target (invisible there until HANDOVER). Slots small enough for
 * one call are copied whole, several a call, the script listing their keys itself; a larger slot's keys are
 * listed first and copied in batches. The source's reply holds the target's RESTORE commands ready to write.
 */
async function copySlots(p: PairMove, slots: number[], ctx: PairContext): Promise<Map<number, SlotCopy>> {
  const { from, to } = p;
  const pacer = ctx.pacerOf(from);
  const copied = new Map<number, SlotCopy>(slots.map((s) => [s, { keys: 0, digest: EMPTY_DIGEST }]));
  const counts = (await ctx.timed('copy', () => exec(from.client, slots.map((s) => ['CLUSTER', 'COUNTKEYSINSLOT', String(s)])))).map(Number);
  const restorer = ctx.restorerOf(to);
  let restoring: Promise<void> = Promise.resolve();
  const copy = async (groups: CopyGroup[], keys: number) => {
    await paceCall(from, ctx);
    // Timed once the source's turn came: waiting for other calls to it is not what these keys cost.
    const read = await ctx.timed('copy', () => ctx.onSource(from, () => measured(ctx, from, Math.max(1, keys),
      async () => parseCopyReply((await from.client.callBuffer('EVALSHA', COPY_SHA, '0', ...copyArgs(groups))) as Buffer, groups.length), (r) => r.serverMs)));
    groups.forEach((g, j) => {
      const c = copied.get(g.slot)!;
      c.keys += read.groups[j]!.keys;
      c.digest = combineDigests(c.digest, read.groups[j]!.digest);
    });
    // The target restores this batch while the source reads the next (one batch in flight).
    await restoring;
    restoring = ctx.timed('copy', () => restorer.restoreEncoded(read.restores, read.keys));
    restoring.catch(() => {}); // awaited below; failing meanwhile must not count as unhandled
  };
  for (let i = 0; i < slots.length;) {
    const budget = pacer.batchKeys();
    if (counts[i]! > budget) {
      // A slot larger than a call: its keys listed, then copied a batch at a time.
      const s = slots[i]!;
      const keys = (await ctx.timed('copy', () => from.client.callBuffer('CLUSTER', 'GETKEYSINSLOT', String(s), String(MAX_SLOT_KEYS)))) as Buffer[];
      for (let k = 0; k < keys.length;) {
        const batch = keys.slice(k, k + pacer.batchKeys());
        k += batch.length;
        await copy([{ slot: s, keys: batch }], batch.length);
      }
      i++;
      continue;
    }
    const groups: CopyGroup[] = [];
    let keys = 0;
    while (i < slots.length && counts[i]! <= budget && (groups.length === 0 || keys + counts[i]! <= budget)) {
      keys += counts[i]!;
      groups.push({ slot: slots[i++]! });
    }
    await copy(groups, keys);
  }
  await restoring;
  return copied;
}

/** Step 5: HANDOVER per slot, grouped so that a pipeline stays within the budget; the slots given up. */
async function handOver(p: PairMove, slots: number[], copied: Map<number, SlotCopy>, ctx: PairContext): Promise<number[]> {
  const { from, to } = p;
  const pacer = ctx.pacerOf(from);
  const handed: number[] = [];
  for (let i = 0; i < slots.length;) {
    await paceCall(from, ctx);
    const budget = pacer.batchKeys();
    const group: number[] = [];
    let keys = 0;
    while (i < slots.length && (group.length === 0 || keys + copied.get(slots[i]!)!.keys <= budget)) {
      keys += copied.get(slots[i]!)!.keys;
      group.push(slots[i++]!);
    }
    const res = await ctx.timed('handover', () => ctx.onSource(from, () => measured(ctx, from, Math.max(1, keys),
      async () => (await exec(from.client, group.map((s) => ['EVALSHA', HANDOVER_SHA, '0', ...handoverArgs(s, to.id, copied.get(s)!)]))).map(parseHandoverReply),
      (r) => r.reduce((ms, x) => ms + x.serverMs, 0))));
    group.forEach((s, j) => { if (res[j]!.handed) handed.push(s); });
  }
  return handed;
}

/** Step 6: the target claims the slots, then every other primary learns it. */
async function close(p: PairMove, slots: number[], ctx: PairContext): Promise<void> {
  const { to } = p;
  await ctx.timed('close', async () => {
    await exec(to.client, slots.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]));
    await Promise.all(ctx.members.filter((m) => m !== to).map((m) => exec(m.client, slots.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'NODE', to.id]))));
  });
}

/** Step 2: the target's keys of slots the source still serves alone are copies nobody reads: removed. */
async function clearCopies(to: MoveMember, slots: number[], ctx: PairContext): Promise<void> {
  const counts = (await ctx.timed('open', () => exec(to.client, slots.map((s) => ['CLUSTER', 'COUNTKEYSINSLOT', String(s)])))) as number[];
  for (const [j, s] of slots.entries()) {
    if (!Number(counts[j])) continue;
    for (;;) {
      const keys = (await to.client.callBuffer('CLUSTER', 'GETKEYSINSLOT', String(s), String(LIST_KEYS))) as Buffer[];
      if (!keys.length) break;
      await exec(to.client, keys.flatMap((k) => [['ASKING'], ['DEL', k]]));
    }
  }
}

/**
 * The classic move (redis-cli's): MIGRATING on the source, then MIGRATE ...
 * REPLACE batches until the slot is empty, then SETSLOT NODE. `fromStable`:
 * the source still serves the slots alone, so the target's keys of them are
 * copies of an earlier attempt, removed first (a key deleted on the source
 * since must not come back through them).
 */
async function moveClassic(p: PairMove, slots: number[], ctx: PairContext, fromStable: boolean): Promise<void> {
  const { from, to } = p;
  const pacer = ctx.pacerOf(from);
  const auth = ['AUTH2', ctx.username, ctx.password];
  ctx.onSlotStart(slots[0]!);
  await ctx.timed('open', () => exec(to.client, slots.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'IMPORTING', from.id])));
  if (fromStable) await clearCopies(to, slots, ctx);
  await ctx.timed('open', () => exec(from.client, slots.map((s) => ['CLUSTER', 'SETSLOT', String(s), 'MIGRATING', to.id])));
  for (const s of slots) {
    for (;;) {
      await paceCall(from, ctx);
      const keys = (await from.client.callBuffer('CLUSTER', 'GETKEYSINSLOT', String(s), String(pacer.batchKeys()))) as Buffer[];
      if (!keys.length) break;
      await ctx.timed('classic', () => ctx.onSource(from, () => measured(ctx, from, keys.length, () => from.client.callBuffer('MIGRATE', to.host, String(to.port), '', '0', '10000', 'REPLACE', ...auth, 'KEYS', ...keys))));
      ctx.onKeys(from, keys.length);
    }
  }
  await close(p, slots, ctx);
  ctx.onSlotsDone(slots.length);
}

/**
 * Runs a call on a source (within its turn), tells the pacer what its keys cost the source (the script's own run
 * time when it reports one, else the round trip), then leaves the source alone long enough that the move takes only
 * the priority's busyShare of its time (the rest of the round trip counts).
 */
async function measured<T>(ctx: PairContext, from: MoveMember, keys: number, call: () => Promise<T>, serverMsOf?: (out: T) => number): Promise<T> {
  const t0 = performance.now();
  const out = await call();
  const elapsed = performance.now() - t0;
  const busy = serverMsOf ? Math.min(elapsed, serverMsOf(out)) : elapsed;
  ctx.pacerOf(from).observe(keys, busy);
  const share = ctx.pace.busyShare;
  if (share < 1) {
    const rest = busy * (1 / share - 1) - (elapsed - busy);
    if (rest > 0.5) await ctx.timed('rest', () => sleep(rest));
  }
  return out;
}

/** Probes of one source are at least this far apart (ms): a probe per call would double the round trips. */
const PROBE_EVERY_MS = 5;
const lastProbe = new WeakMap<MoveMember, number>();

/** Before a call on a source: now and then a probe, and (unless the priority never rests) a rest while it answers slowly. */
async function paceCall(m: MoveMember, ctx: PairContext): Promise<void> {
  const now = performance.now();
  if (now - (lastProbe.get(m) ?? -Infinity) < PROBE_EVERY_MS) return;
  lastProbe.set(m, now);
  const pacer = ctx.pacerOf(m);
  for (let tries = 0; tries < 4; tries++) {
    const busy = pacer.probe(await ctx.probe(m));
    if (!busy || ctx.pace.restMs <= 0) return;
    await ctx.timed('rest', () => sleep(ctx.pace.restMs));
  }
}

/** Sends commands in one pipeline; throws the first error. */
export async function exec(client: Redis, commands: (string | Buffer)[][]): Promise<unknown[]> {
  if (!commands.length) return [];
  const pl = client.pipeline();
  for (const [name, ...args] of commands) pl.call(String(name), ...args);
  return unwrap(commands, await pl.exec());
}

/** An argument in an error message: binary payloads by their size. */
const shown = (a: string | Buffer) => (typeof a === 'string' ? a : /^[\x20-\x7e]*$/.test(a.toString('latin1')) ? a.toString() : `<${a.length} bytes>`);

function unwrap(commands: (string | Buffer)[][], res: [Error | null, unknown][] | null): unknown[] {
  return (res ?? []).map(([err, v], i) => {
    if (err) throw new Error(`${commands[i]!.slice(0, 4).map(shown).join(' ')}: ${err.message}`);
    return v;
  });
}
