/**
 * Closes slots left importing or migrating (an interrupted migration, a
 * crash mid-move): keys a non-owner holds in the slot are moved back to the
 * slot's owner with MIGRATE and every node marks the slot STABLE; with
 * `movingTo`, a slot its target imports stays open, moving on. Nothing
 * acknowledged is lost: where both sides hold a key, the owner's (newer)
 * copy wins. (After a failover of the source, a key whose MIGRATE's delete
 * had not reached the replica yet is back on the owner, stale: a write to
 * it through the target in the milliseconds before the crash loses to it.)
 */
import type { Redis } from 'ioredis';
import type { AdminLogin } from './admin-connection';
import { AdminConnectionPool } from './admin-connection';
import { parseClusterNodes, parseOpenSlots, slotOwners } from './cluster-reply.parser';

export interface RepairSlotsOptions {
  primaries: { host: string; port: number }[];
  username: string;
  password: string;
  /** TLS cluster: verify instances against this CA. */
  tls?: AdminLogin['tls'];
  log?: (msg: string) => void;
  /** Keys per MIGRATE call. */
  batch?: number;
  /**
   * For a migration in progress: the member each slot is moving to. A slot
   * that member is importing stays open and keeps its keys there, importing
   * from the slot's live owner (re-pointed when a failover replaced the
   * source), so the migration goes on instead of moving keys back.
   */
  movingTo?: (slot: number) => { host: string; port: number } | undefined;
  /**
   * Slots to repair though no member marks them open: a member holds keys of them without owning them (the
   * promoted replica of a target whose primary died with the move's marks; see unmarkedHolderSlots).
   */
  alsoSlots?: number[];
}

export async function repairOpenSlots(opts: RepairSlotsOptions): Promise<{ slot: number; movedKeys: number }[]> {
  const pool = new AdminConnectionPool({ username: opts.username, password: opts.password, tls: opts.tls }, 5000);
  const log = opts.log ?? (() => {});
  try {
    const views = await Promise.all(opts.primaries.map(async (p) => {
      const client = await pool.get(p.host, p.port);
      const text = String(await client.call('CLUSTER', 'NODES'));
      const myself = parseClusterNodes(text).find((n) => n.myself)!;
      return { ...p, client, myself, open: parseOpenSlots(text, myself.id) };
    }));
    const openSlots = [...new Set([...views.flatMap((v) => v.open.map((o) => o.slot)), ...(opts.alsoSlots ?? [])])].sort((a, b) => a - b);
    const repaired: { slot: number; movedKeys: number }[] = [];
    // Two primaries may both claim a slot for a moment (a stale one back with its old claims): slotOwners decides.
    const owners = slotOwners(views.map((v) => ({ of: v, slots: v.myself.slots, configEpoch: v.myself.configEpoch })));
    const ownerOf = (slot: number) => {
      const owner = owners[slot];
      if (!owner) throw new Error(`slot ${slot} is open but no primary owns it`);
      return owner;
    };
    // A slot its live owner still serves alone (not MIGRATING) while another member imports it from that owner:
    // a move stopped while copying keys. The importer's keys are copies nobody reads (a key deleted on the owner
    // since would come back through them): removed, and the mark dropped. Decided now, before importers from a
    // dead owner are re-pointed below: those hold keys handed over to them (the only copies), never dropped.
    const copies = openSlots.map((slot) => ({ slot, owner: ownerOf(slot), importers: copyHolders(slot, ownerOf(slot), views) }));
    // Every open slot first: a member naming a dead owner for any slot is in cluster_state:fail and refuses keyed
    // commands (MIGRATE, and the DEL of copies) until it names the live owner.
    for (const slot of openSlots) await adoptImporters(slot, ownerOf(slot), views, log);
    await untilClusterOk(views, log);
    for (const c of copies) for (const v of c.importers) await dropCopies(c.slot, c.owner, v, log, opts);
    for (const slot of openSlots) {
      const owner = ownerOf(slot);
      const dest = opts.movingTo?.(slot);
      const importer = dest && views.find((v) => v !== owner && v.host === dest.host && v.port === dest.port && v.open.some((o) => o.slot === slot && o.state === 'importing'));
      if (importer) {
        await continueMove(slot, owner, importer);
        // Anyone else with the slot open holds no part of this move: close it the usual way below.
        for (const v of views.filter((x) => x !== owner && x !== importer && x.open.some((o) => o.slot === slot))) {
          const moved = await closeOn(v, slot, owner, opts);
          log(`slot ${slot}: closed on ${v.host}:${v.port}; ${moved} key(s) moved back to its owner`);
        }
        log(`slot ${slot}: left moving from ${owner.host}:${owner.port} to ${importer.host}:${importer.port}`);
        repaired.push({ slot, movedKeys: 0 });
        continue;
      }
      // The owner first: a MIGRATING owner answers ASK for keys it lacks and
      // would refuse them back. Once stable it serves the slot alone; the
      // keys still on the importing side are moved back right after (a read
      // in between misses them for milliseconds, nothing is lost).
      if (owner.open.some((o) => o.slot === slot)) await owner.client.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
      let moved = 0;
      for (const v of views.filter((x) => x !== owner && x.open.some((o) => o.slot === slot))) moved += await closeOn(v, slot, owner, opts);
      log(`slot ${slot} closed; ${moved} key(s) moved back to its owner`);
      repaired.push({ slot, movedKeys: moved });
    }
    return repaired;
  } finally {
    await pool.closeAll();
  }
}

/** See the caller: members importing the slot from its owner while the owner does not migrate it hold copies only. */
function copyHolders(slot: number, owner: View, views: View[]): View[] {
  if (owner.open.some((o) => o.slot === slot && o.state === 'migrating')) return [];
  return views.filter((v) => v !== owner && v.open.some((o) => o.slot === slot && o.state === 'importing' && o.peerId === owner.myself.id));
}

/**
 * Removes an importer's copies of `slot` and its mark (see copyHolders). Only the keys the owner also has are
 * dropped (the owner's is the newer); one the owner lacks goes back to it. A repair that failed half-way (the
 * owner set STABLE, the keys handed over not moved back yet) leaves the same marks as a move stopped while
 * copying, and then the importer holds the only copies. The cost: a key deleted on the owner while a move was
 * copying it, and the move then interrupted, comes back.
 */
async function dropCopies(slot: number, owner: View, v: View, log: (m: string) => void, opts: RepairSlotsOptions): Promise<void> {
  let dropped = 0;
  let returned = 0;
  for (;;) {
    const keys = (await v.client.callBuffer('CLUSTER', 'GETKEYSINSLOT', String(slot), '1000')) as Buffer[];
    if (!keys.length) break;
    const held = await owner.client.pipeline(keys.map((k) => ['exists', k])).exec();
    const onOwner = keys.filter((_, i) => {
      const [err, n] = held![i]!;
      if (err) throw err;
      return Number(n) === 1;
    });
    if (onOwner.length) {
      const pl = v.client.pipeline();
      for (const k of onOwner) pl.call('ASKING').call('DEL', k);
      for (const [err] of (await pl.exec()) ?? []) if (err) throw err;
      dropped += onOwner.length;
    }
    const only = keys.filter((k) => !onOwner.includes(k));
    if (only.length) returned += await moveBack(v.client, owner, only, opts);
  }
  await v.client.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
  v.open = v.open.filter((o) => o.slot !== slot);
  log(`slot ${slot}: ${v.host}:${v.port} was copying it from its owner ${owner.host}:${owner.port}; ${dropped} copied key(s) dropped, ${returned} the owner lacked moved back to it`);
}

const CLUSTER_OK_WAIT_MS = 10_000;

/**
 * Waits (bounded) until every member says cluster_state:ok: keyed commands
 * (MIGRATE, scripts) fail with CLUSTERDOWN on a member that still sees a
 * slot uncovered (a failover or a claim gossip has not spread yet). Then
 * returns either way: the caller's next command says what is wrong.
 */
export async function untilClusterOk(members: { host: string; port: number; client: Redis }[], log: (msg: string) => void, waitMs = CLUSTER_OK_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  const started = Date.now();
  for (;;) {
    const states = await Promise.all(members.map(async (m) => /cluster_state:ok/.test(String(await m.client.call('CLUSTER', 'INFO')))));
    if (states.every(Boolean)) {
      if (Date.now() - started > 50) log(`every member says cluster_state:ok after ${Date.now() - started} ms`);
      return;
    }
    if (Date.now() > deadline) {
      log(`${members.filter((_, i) => !states[i]).map((m) => `${m.host}:${m.port}`).join(', ')} still not cluster_state:ok after ${waitMs} ms; moving on`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

type View = { host: string; port: number; client: Redis; myself: { id: string; configEpoch: number }; open: { slot: number; state: 'importing' | 'migrating'; peerId: string }[] };

/**
 * Every member but the owner that holds keys of an open slot becomes an
 * importer from the slot's live owner, so the keys can go on to the target
 * or back to the owner. Two cases need it after a failover mid-move: an
 * importer still names the dead source as the slot's owner (Redis ignores a
 * new owner of a slot being imported, so that member stays in
 * cluster_state:fail, refusing clients and MIGRATE, for good), and the
 * promoted replica of a dead target holds what its primary imported with no
 * mark on the slot (those keys would be invisible, or lost on a rollback).
 */
async function adoptImporters(slot: number, owner: View, views: View[], log: (m: string) => void): Promise<void> {
  const s = String(slot);
  for (const v of views) {
    if (v === owner) continue;
    const mark = v.open.find((o) => o.slot === slot);
    if (mark?.state === 'importing' && mark.peerId === owner.myself.id) continue;
    if (mark?.state === 'migrating') continue; // a non-owner migrating: closed below, its keys moved back
    if (!mark && Number(await v.client.call('CLUSTER', 'COUNTKEYSINSLOT', s)) === 0) continue;
    await v.client.call('CLUSTER', 'SETSLOT', s, 'NODE', owner.myself.id);
    await v.client.call('CLUSTER', 'SETSLOT', s, 'IMPORTING', owner.myself.id);
    v.open = [...v.open.filter((o) => o.slot !== slot), { slot, state: 'importing', peerId: owner.myself.id }];
    log(`slot ${slot}: ${v.host}:${v.port} ${mark ? 'imported it from a node that no longer owns it' : 'holds keys of it unmarked'}; now importing from ${owner.host}:${owner.port}`);
  }
}

/** Leaves a slot mid-move toward `importer` (importing from the owner, see adoptImporters): the owner migrates to it. */
async function continueMove(slot: number, owner: View, importer: View): Promise<void> {
  const own = owner.open.find((o) => o.slot === slot);
  if (own?.state === 'migrating' && own.peerId === importer.myself.id) return;
  if (own) await owner.client.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
  await owner.client.call('CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', importer.myself.id);
}

/** Moves a non-owner's keys of `slot` back to the owner, then marks the slot STABLE there; the keys moved. */
async function closeOn(v: View, slot: number, owner: { host: string; port: number }, opts: RepairSlotsOptions): Promise<number> {
  let moved = 0;
  for (;;) {
    const keys = (await v.client.call('CLUSTER', 'GETKEYSINSLOT', String(slot), String(opts.batch ?? 100))) as string[];
    if (!keys.length) break;
    moved += await moveBack(v.client, owner, keys, opts);
  }
  await v.client.call('CLUSTER', 'SETSLOT', String(slot), 'STABLE');
  return moved;
}

/**
 * MIGRATEs keys to the owner. A key the owner already has was written there
 * after the owner became stable, so it is the newer value: the stale copy on
 * the importing side is dropped instead of overwriting it.
 */
async function moveBack(from: Redis, owner: { host: string; port: number }, keys: (string | Buffer)[], opts: RepairSlotsOptions): Promise<number> {
  const migrate = (ks: (string | Buffer)[]) => from.call('MIGRATE', owner.host, String(owner.port), '', '0', '5000', 'AUTH2', opts.username, opts.password, 'KEYS', ...ks);
  try {
    await migrate(keys);
    return keys.length;
  } catch (err) {
    if (!/BUSYKEY/.test((err as Error).message)) throw err;
  }
  let moved = 0;
  for (const k of keys) {
    try {
      if (String(await migrate([k])) !== 'NOKEY') moved++;
    } catch (err) {
      if (!/BUSYKEY/.test((err as Error).message)) throw err;
      await from.call('DEL', k);
    }
  }
  return moved;
}
