/**
 * Pipelined getset the way redis-benchmark and memtier run it: every socket
 * is bound to one primary and carries batches of `pipeline` requests for
 * that primary's keys; when a batch's last reply is in, the next batch is
 * written at once, in one write. Keys are uniform within each primary's
 * share of the key range (KeyPartition), the SET:GET ratio is kept per
 * request.
 *
 * This is the closed-loop, uniform-key, pipelined case only; everything
 * else (and any request answered with a redirect) goes through the general
 * per-op path of OpsRunner. Measured on this 2-core machine it costs about
 * half the JavaScript per request of that path (see README, benchmarks),
 * which is what keeps the load generator from being the bottleneck.
 */
import type { Rng } from '../random';
import type { ValuePool } from '../record';
import type { Encodable } from './command-writer';
import { decimalDigits, writeBulkView, writeDigits } from './command-writer';
import type { RespConnection, ReplyHandler } from './resp-connection';
import { ReplyType, type Reply } from './resp';

/** What a batch needs from the runner that owns it. */
export interface BatchHost {
  /** New requests may start (warm-up or steady, budget left). */
  canStart(): boolean;
  /** Counts one finished request (stats, acknowledged-write marks, budget, in-flight count). */
  finish(set: boolean, keynum: number, sentAt: number, now: number, error: boolean, miss: boolean, message?: string): void;
  /** The reply was a redirect (MOVED/ASK): the request goes on through the general path, which counts it when done. */
  redirect(set: boolean, keynum: number, sentAt: number, message: string, now: number): void;
  /** A batch ended without a next one (the run is ending). */
  batchEnded(): void;
  /** Requests started (in flight). */
  started(n: number): void;
}

/** The keys 0..count-1 of each primary (endpoint index), from the slot map. */
export class KeyPartition {
  lists: Int32Array[] = [];
  /** Set when a redirect showed the slot map changed: rebuilt before the next batch (at most every REBUILD_MS). */
  stale = false;
  private builtAt = 0;
  static readonly REBUILD_MS = 100;

  constructor(
    private readonly count: number,
    private readonly slotOf: (keynum: number) => number,
    private readonly owner: Int16Array,
  ) {}

  build(now: number): void {
    const ownerOf = new Int16Array(this.count);
    const sizes: number[] = [];
    for (let k = 0; k < this.count; k++) {
      const o = (ownerOf[k] = this.owner[this.slotOf(k)]!);
      if (o >= 0) sizes[o] = (sizes[o] ?? 0) + 1;
    }
    const lists = Array.from({ length: sizes.length }, (_, i) => new Int32Array(sizes[i] ?? 0));
    const fill = new Array<number>(sizes.length).fill(0);
    for (let k = 0; k < this.count; k++) {
      const o = ownerOf[k]!;
      if (o >= 0) lists[o]![fill[o]!++] = k;
    }
    this.lists = lists;
    this.stale = false;
    this.builtAt = now;
  }

  /** Rebuilds a stale partition if the last build is old enough. */
  refresh(now: number): void {
    if (this.stale && now - this.builtAt >= KeyPartition.REBUILD_MS) this.build(now);
  }
}

/**
 * `*2\r\n$3\r\nGET\r\n$<len>\r\n<keyPrefix>memtier-` (and SET's) for each digit count
 * of the key number: one copy per request instead of a byte loop over the text.
 */
export interface GetsetTemplates {
  get: Uint8Array[];
  set: Uint8Array[];
  /** Bytes of the longest request: headers, the key prefix, a 16-digit key, the value's header. */
  fixedBytes: number;
}

export function getsetTemplates(keyPrefix: string): GetsetTemplates {
  const prefix = `${keyPrefix}memtier-`;
  const templates = (cmd: string, argc: number): Uint8Array[] =>
    Array.from({ length: 17 }, (_, digits) => Buffer.from(`*${argc}\r\n$3\r\n${cmd}\r\n$${prefix.length + digits}\r\n${prefix}`, 'latin1'));
  return { get: templates('GET', 2), set: templates('SET', 3), fixedBytes: 56 + prefix.length };
}


/** One socket's batches: encodes a batch in one pass and takes its replies in order. */
export class GetSetBatch implements Encodable, ReplyHandler {
  private readonly keys: Int32Array;
  private readonly isSet: Uint8Array;
  private n = 0;
  private replies = 0;
  private sentAt = 0;
  maxBytes = 0;
  stopped = false;

  constructor(
    readonly conn: RespConnection,
    private readonly idx: number,
    private readonly pipeline: number,
    private readonly host: BatchHost,
    private readonly partition: KeyPartition,
    private readonly rng: Rng,
    /** a request is a SET when rng.nextU32() < setBelow */
    private readonly setBelow: number,
    private readonly values: ValuePool,
    private readonly templates: GetsetTemplates = getsetTemplates(''),
  ) {
    this.keys = new Int32Array(pipeline);
    this.isSet = new Uint8Array(pipeline);
  }

  /** Writes the next batch; false when none was started (run ending, socket closed, no keys on this primary). */
  fill(now: number): boolean {
    if (this.stopped || this.conn.isClosed || !this.host.canStart()) return false;
    this.partition.refresh(now);
    const list = this.partition.lists[this.idx];
    if (!list || list.length === 0) return false;
    const rng = this.rng;
    const len = list.length;
    const p = this.pipeline;
    for (let i = 0; i < p; i++) {
      this.isSet[i] = rng.nextU32() < this.setBelow ? 1 : 0;
      this.keys[i] = list[Math.floor((rng.nextU32() / 4294967296) * len)]!;
    }
    this.n = p;
    this.replies = 0;
    this.maxBytes = p * (this.templates.fixedBytes + this.values.length);
    this.sentAt = now;
    this.host.started(p);
    this.conn.sendBatch(this, this, p);
    return true;
  }

  encode(buf: Buffer, off: number): number {
    const values = this.values;
    for (let i = 0; i < this.n; i++) {
      const k = this.keys[i]!;
      const set = this.isSet[i] === 1;
      const digits = decimalDigits(k);
      const tpl = (set ? this.templates.set : this.templates.get)[digits]!;
      buf.set(tpl, off);
      off += tpl.length;
      off = writeDigits(buf, off, k, digits);
      buf[off] = 13;
      buf[off + 1] = 10;
      off += 2;
      if (set) off = writeBulkView(buf, off, values.view(k));
    }
    return off;
  }

  onReply(r: Reply, now: number): void {
    const i = this.replies++;
    const set = this.isSet[i] === 1;
    const keynum = this.keys[i]!;
    if (r.type === ReplyType.Error) {
      const msg = String(r.value);
      if (msg.startsWith('MOVED ') || msg.startsWith('ASK ')) {
        if (msg.startsWith('MOVED ')) this.partition.stale = true;
        this.host.redirect(set, keynum, this.sentAt, msg, now);
      } else this.host.finish(set, keynum, this.sentAt, now, true, false, msg);
    } else this.host.finish(set, keynum, this.sentAt, now, false, !set && r.integer < 0);
    if (this.replies === this.n && !this.fill(now)) this.host.batchEnded();
  }

  onFailure(err: Error): void {
    const i = this.replies++;
    this.host.finish(this.isSet[i] === 1, this.keys[i]!, this.sentAt, performance.now(), true, false, err.message);
    if (this.replies === this.n) this.host.batchEnded();
  }
}
