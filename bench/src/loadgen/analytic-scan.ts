/**
 * The analytic query done client-side: every primary is read in parallel,
 * and `HGET key field0` for each batch of keys is pipelined on the same
 * connection, counting sentences as the bytes arrive. Each server call is
 * small, so no node is blocked for long (the longest batch, send to last
 * reply, is reported as an upper bound).
 *
 * Keys are listed per hash slot the node owns (`CLUSTER GETKEYSINSLOT`,
 * Redis Cluster's per-slot key index): no cursor to follow one call after
 * another, so many slots are in flight at once, and no key is listed twice
 * (a key lives in one slot), which SCAN does not promise. A node whose
 * slots cannot be read from CLUSTER SLOTS falls back to SCAN ... TYPE hash
 * with keys deduped.
 *
 * With a `keyPrefix` (a benchmark on a customer's cluster), only the run's own
 * keys are read: other keys are skipped by their listed name, never fetched.
 */
import { performance } from 'node:perf_hooks';
import { RespConnection, type ReplyHandler } from './resp-connection';
import { ParseMode, ReplyType, keySpans, type Reply } from './resp';
import type { Encodable } from './command-writer';
import { writeAscii, writeBulkBytes, bulkBytes } from './command-writer';
import { splitEndpoint } from './ops-runner';
import { parseClusterSlots } from './slot-map';

export interface AnalyticNodeResult {
  endpoint: string;
  records: number;
  sentences: number;
  longestBatchMs: number;
  errors: number;
  firstError?: string;
}

const BATCHES_IN_FLIGHT = 4;
const SCAN_COUNT = '1000';
/** Slots listed per batch (about 1000 keys at 1M keys over 16384 slots) and batches in flight per node. */
const SLOTS_PER_BATCH = 16;
const SLOT_BATCHES_IN_FLIGHT = 8;
/** Keys asked per slot; a slot holding more is asked again for all of them. */
const KEYS_PER_SLOT = 100_000;

/** `keysPerSlot`: keys asked per slot (a slot holding more is listed again, whole); smaller only in tests. */
export async function scanNode(endpoint: string, auth: { username: string; password: string } | undefined, keysPerSlot = KEYS_PER_SLOT, keyPrefix = ''): Promise<AnalyticNodeResult> {
  const prefix = Buffer.from(keyPrefix, 'latin1');
  const [host, port] = splitEndpoint(endpoint);
  const conn = await RespConnection.connect(host, port, auth);
  const result: AnalyticNodeResult = { endpoint, records: 0, sentences: 0, longestBatchMs: 0, errors: 0 };
  try {
    const slots = await ownedSlots(conn, endpoint);
    if (slots.length > 0) {
      await bySlots(conn, slots, result, keysPerSlot, prefix);
      return result;
    }
    await byScan(conn, result, keyPrefix);
  } finally {
    conn.close();
  }
  return result;
}

/** The slots CLUSTER SLOTS says this endpoint serves as primary (empty when it names it differently). */
async function ownedSlots(conn: RespConnection, endpoint: string): Promise<number[]> {
  const reply = await conn.call(['CLUSTER', 'SLOTS']);
  if (reply instanceof Error) return [];
  const out: number[] = [];
  for (const r of parseClusterSlots(reply)) if (`${r.host}:${r.port}` === endpoint) for (let s = r.start; s <= r.end; s++) out.push(s);
  return out;
}

/** `HGET <key> field0`, the key copied from a key-list reply (see ParseMode.Spans): no string per key. */
class HgetFromReply implements Encodable {
  src: Buffer = Buffer.alloc(0);
  start = 0;
  len = 0;
  get maxBytes(): number {
    return 48 + bulkBytes(this.len);
  }
  encode(buf: Buffer, off: number): number {
    off = writeBulkBytes(buf, writeAscii(buf, off, '*3\r\n$4\r\nHGET\r\n'), this.src, this.start, this.len);
    return writeAscii(buf, off, '$6\r\nfield0\r\n');
  }
}

/**
 * Batches of SLOTS_PER_BATCH slots, SLOT_BATCHES_IN_FLIGHT batches at a
 * time: each slot's key list is answered by the HGETs of its keys at once,
 * on the same connection, written straight from the reply's bytes.
 */
/** Whether the key at buf[start, start + len) begins with `prefix` (always, for an empty prefix). */
function startsWith(buf: Buffer, start: number, len: number, prefix: Buffer): boolean {
  return prefix.length === 0 || (len >= prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0);
}

async function bySlots(conn: RespConnection, slots: number[], result: AnalyticNodeResult, keysPerSlot: number, prefix: Buffer): Promise<void> {
  let next = 0;
  const hget = new HgetFromReply();
  const batch = (list: number[]): Promise<void> =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      let left = list.length;
      const settle = (now: number) => {
        if (--left === 0) {
          result.longestBatchMs = Math.max(result.longestBatchMs, now - t0);
          resolve();
        }
      };
      const values: ReplyHandler = {
        onReply(r: Reply, now: number) {
          countField0(r, result, true);
          settle(now);
        },
        onFailure(err: Error) {
          result.errors++;
          result.firstError ??= err.message;
          settle(performance.now());
        },
      };
      for (const slot of list) {
        conn.send(
          `*4\r\n$7\r\nCLUSTER\r\n$13\r\nGETKEYSINSLOT\r\n$${String(slot).length}\r\n${slot}\r\n$${String(keysPerSlot).length}\r\n${keysPerSlot}\r\n`,
          {
            onReply(r: Reply, now: number) {
              if (r.type === ReplyType.Error) return reject(new Error(String(r.value)));
              if (r.integer >= keysPerSlot) {
                // more keys than asked for: list them all, the slow way
                left++;
                void crowdedSlot(conn, slot, result, prefix.toString('latin1')).then(() => settle(performance.now()), reject);
              } else {
                const src = r.value as Buffer;
                hget.src = src;
                for (let i = 0; i < r.integer; i++) {
                  hget.start = keySpans[2 * i]!;
                  hget.len = keySpans[2 * i + 1]!;
                  if (!startsWith(src, hget.start, hget.len, prefix)) continue;
                  left++;
                  conn.send(hget, values, ParseMode.Dots);
                }
              }
              settle(now);
            },
            onFailure: reject,
          },
          ParseMode.Spans,
        );
      }
    });
  const worker = async (): Promise<void> => {
    while (next < slots.length) {
      const list = slots.slice(next, next + SLOTS_PER_BATCH);
      next += list.length;
      await batch(list);
    }
  };
  await Promise.all(Array.from({ length: SLOT_BATCHES_IN_FLIGHT }, worker));
}

/** A slot holding KEYS_PER_SLOT keys or more: count them, list them all, read them. */
async function crowdedSlot(conn: RespConnection, slot: number, result: AnalyticNodeResult, keyPrefix: string): Promise<void> {
  const t0 = performance.now();
  const n = await conn.call(['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]);
  const all = await conn.call(['CLUSTER', 'GETKEYSINSLOT', String(slot), String(n)]);
  if (all instanceof Error) throw all;
  await hgetBatch(conn, (all as string[]).filter((k) => k.startsWith(keyPrefix)), t0, result, true);
}

async function byScan(conn: RespConnection, result: AnalyticNodeResult, keyPrefix: string): Promise<void> {
  const seen = new Set<string>();
  {
    let cursor = '0';
    let started = false;
    const pending: Promise<void>[] = [];
    while (!started || cursor !== '0') {
      started = true;
      const t0 = performance.now();
      const reply = await conn.call(['SCAN', cursor, ...(keyPrefix ? ['MATCH', `${globEscape(keyPrefix)}*`] : []), 'COUNT', SCAN_COUNT, 'TYPE', 'hash']);
      if (reply instanceof Error) throw reply;
      const [next, keys] = reply as [string, string[]];
      cursor = next;
      const fresh = keys.filter((k) => !seen.has(k));
      for (const k of fresh) seen.add(k);
      pending.push(hgetBatch(conn, fresh, t0, result));
      if (pending.length >= BATCHES_IN_FLIGHT) await pending.shift();
    }
    await Promise.all(pending);
    result.records = seen.size;
  }
}

/** One `HGET key field0` reply (ParseMode.Dots): its sentences, a record with `countRecords` (keys of other types skipped), or an error. */
function countField0(r: Reply, result: AnalyticNodeResult, countRecords: boolean): void {
  if (r.type === ReplyType.Error) {
    if (!(countRecords && String(r.value).startsWith('WRONGTYPE'))) {
      result.errors++;
      result.firstError ??= String(r.value);
    }
  } else if (r.integer > 0) {
    result.sentences += r.integer;
    if (countRecords) result.records++;
  } else {
    result.errors++;
    result.firstError ??= 'record without field0';
  }
}

/** HGET field0 of each key, sentences counted on the reply bytes; with `countRecords`, each hash read counts as a record and keys of other types are skipped. */
function hgetBatch(conn: RespConnection, keys: string[], t0: number, result: AnalyticNodeResult, countRecords = false): Promise<void> {
  if (keys.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = keys.length;
    const handler: ReplyHandler = {
      onReply(r: Reply, now: number) {
        countField0(r, result, countRecords);
        if (--left === 0) {
          result.longestBatchMs = Math.max(result.longestBatchMs, now - t0);
          resolve();
        }
      },
      onFailure(err: Error) {
        result.errors++;
        result.firstError ??= err.message;
        if (--left === 0) resolve();
      },
    };
    for (const k of keys) conn.send('*3\r\n$4\r\nHGET\r\n$' + k.length + '\r\n' + k + '\r\n$6\r\nfield0\r\n', handler, ParseMode.Dots);
  });
}

/** A literal for a SCAN MATCH pattern: glob characters escaped. */
export function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
