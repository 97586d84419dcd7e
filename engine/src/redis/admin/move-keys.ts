/**
 * Moves every key of a standalone engine (a restore's temporary engine,
 * loaded from one backup file) into a running cluster, by slot: SCAN on the
 * source, DUMP + PEXPIRETIME of each batch in one round trip, then
 * `RESTORE-ASKING key ttl payload REPLACE ABSTTL` pipelined to the primary
 * owning each key's slot (one connection per primary, each batch written at
 * once). The next batch is read while the last one is restored. A key is
 * restored whole (RESTORE is atomic), whatever its size; its absolute
 * expiry is kept; a key whose TTL ran out is skipped. REPLACE makes a
 * second run (after the mover died) harmless.
 */
import type { Redis } from 'ioredis';
import { keySlot } from '../key-slot';
import { SLOT_COUNT } from '../slots.planner';
import { connectAdmin, type AdminLogin } from './admin-connection';
import { BulkRestoreConnection, type RestoreEntry } from './bulk-restore.connection';

export interface MoveKeysOptions {
  /** The engine holding the keys (nothing else writes to it). */
  source: Redis;
  /** Members of the target cluster: the slot map is read from the first that answers. */
  targets: { host: string; port: number }[];
  /** How Strata logs in to the target's instances (its internal user; over TLS for a TLS cluster). */
  login: AdminLogin;
  /** Keys per SCAN batch. */
  batchKeys?: number;
  /** At most this many keys a second (0 or absent: as fast as it goes). */
  maxKeysPerSec?: number;
  /** Longest wait for the target cluster to serve every slot. */
  clusterTimeoutMs?: number;
  stop?: AbortSignal;
  /** Keys restored (and skipped as expired) so far, of the source's total. */
  onProgress?: (done: number, total: number) => void;
}

export interface MoveKeysResult {
  keysTotal: number;
  keysMoved: number;
  /** Keys whose TTL ran out before they were moved. */
  keysExpired: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Slot -> "host:port" of its primary, once every slot has one. */
async function slotMap(o: MoveKeysOptions): Promise<string[]> {
  const deadline = Date.now() + (o.clusterTimeoutMs ?? 30_000);
  let why = 'no member answered';
  for (;;) {
    for (const t of o.targets) {
      const c = await connectAdmin({ ...t, ...o.login }, 5000).catch((err: Error) => { why = `${t.host}:${t.port}: ${err.message}`; return null; });
      if (!c) continue;
      try {
        const reply = (await c.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const owners: string[] = new Array(SLOT_COUNT);
        for (const [start, end, primary] of reply) for (let s = start; s <= end; s++) owners[s] = `${primary[0]}:${primary[1]}`;
        const covered = owners.filter((x) => x !== undefined).length;
        if (covered === SLOT_COUNT) return owners;
        why = `${SLOT_COUNT - covered} slots have no primary yet`;
      } catch (err) {
        why = (err as Error).message;
      } finally {
        c.disconnect();
      }
    }
    if (Date.now() > deadline) throw new Error(`the new cluster does not serve every slot: ${why}`);
    await sleep(200);
  }
}

/** Reads one batch's payloads and absolute expiries (ms; -1 none) in one round trip. */
async function readBatch(source: Redis, keys: Buffer[]): Promise<{ entries: RestoreEntry[]; expired: number }> {
  const p = source.pipeline();
  for (const k of keys) {
    p.dumpBuffer(k);
    p.call('PEXPIRETIME', k);
  }
  const res = (await p.exec()) ?? [];
  const entries: RestoreEntry[] = [];
  let expired = 0;
  const now = Date.now();
  keys.forEach((key, i) => {
    const [e1, payload] = res[2 * i]!;
    const [e2, at] = res[2 * i + 1]!;
    if (e1 || e2) throw e1 ?? e2;
    const expireAt = Number(at);
    // Gone since SCAN saw it (expired), or expiring now: not moved.
    if (payload === null || expireAt === -2 || (expireAt > 0 && expireAt <= now)) {
      expired++;
      return;
    }
    entries.push({ key, expireAt: expireAt > 0 ? expireAt : 0, payload: payload as Buffer });
  });
  return { entries, expired };
}

export async function moveKeys(o: MoveKeysOptions): Promise<MoveKeysResult> {
  const keysTotal = Number(await o.source.dbsize());
  const owners = await slotMap(o);
  const conns = new Map<string, BulkRestoreConnection>();
  const connFor = async (addr: string) => {
    let c = conns.get(addr);
    if (!c) {
      const colon = addr.lastIndexOf(':');
      c = await BulkRestoreConnection.connect(addr.slice(0, colon), Number(addr.slice(colon + 1)), o.login.username, o.login.password, o.login.tls);
      conns.set(addr, c);
    }
    return c;
  };
  const started = Date.now();
  let moved = 0;
  let expired = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const restore = async (entries: RestoreEntry[]) => {
    const byOwner = new Map<string, RestoreEntry[]>();
    for (const e of entries) {
      const owner = owners[keySlot(e.key)]!;
      let list = byOwner.get(owner);
      if (!list) byOwner.set(owner, (list = []));
      list.push(e);
    }
    await Promise.all([...byOwner].map(async ([addr, list]) => {
      try {
        await (await connFor(addr)).restore(list);
      } catch (err) {
        const msg = (err as Error).message;
        throw new Error(/OOM/.test(msg) ? `the new cluster's primary ${addr} is out of memory (${msg}); give the cluster more memory per shard` : `restoring keys on ${addr}: ${msg}`);
      }
    }));
    moved += entries.length;
  };
  try {
    let cursor = '0';
    do {
      if (o.stop?.aborted) throw new Error('stopped');
      const [next, keys] = await o.source.scanBuffer(cursor, 'COUNT', o.batchKeys ?? 500);
      cursor = String(next);
      if (!keys.length) continue;
      const batch = await readBatch(o.source, keys);
      await inFlight;
      expired += batch.expired;
      inFlight = restore(batch.entries);
      // Don't leave a rejection unobserved while the next batch is read.
      inFlight.catch(() => {});
      o.onProgress?.(Math.min(keysTotal, moved + expired), keysTotal);
      if (o.maxKeysPerSec) {
        const due = started + ((moved + expired + batch.entries.length) / o.maxKeysPerSec) * 1000 - Date.now();
        if (due > 0) await sleep(due);
      }
    } while (cursor !== '0');
    await inFlight;
    o.onProgress?.(Math.min(keysTotal, moved + expired), keysTotal);
    return { keysTotal, keysMoved: moved, keysExpired: expired };
  } finally {
    await inFlight.catch(() => {});
    for (const c of conns.values()) c.close();
  }
}
