/**
 * A lean RESP2 reply parser. Replies are not materialized unless asked:
 * the benchmark hot path only needs to know "ok / error / nil / how many",
 * which keeps a pipelined GET or HGETALL at a few hundred nanoseconds.
 */

export const enum ReplyType {
  Simple = 0,
  Error = 1,
  Integer = 2,
  Bulk = 3,
  Array = 4,
}

/** How much of a reply to decode. */
export const enum ParseMode {
  /** type + integer/length only; errors are materialized (MOVED/ASK need them) */
  Skip = 0,
  /** full JS value in `value` (strings, numbers, nested arrays, null) */
  Full = 1,
  /** bulk strings: sentence count of the content in `integer` */
  Dots = 2,
  /**
   * an array of bulk strings (a key list): `value` is the buffer holding the
   * reply and `keySpans` the start and length of each element in it, valid
   * only during the onReply call (nothing is copied or decoded)
   */
  Spans = 3,
}

/** Start, length pairs of the elements of the last ParseMode.Spans reply (see there). */
export let keySpans = new Int32Array(2048);

export interface Reply {
  type: ReplyType;
  /** integer value, bulk length, or array length (-1 = nil) */
  integer: number;
  /** error message (always), or the full value in ParseMode.Full */
  value: unknown;
}

const CR = 13;

function readLine(buf: Buffer, pos: number, limit: number): number {
  for (let i = pos; i < limit; i++) if (buf[i] === CR) return i + 1 < limit ? i : -1;
  return -1;
}

function readInt(buf: Buffer, start: number, end: number): number {
  let neg = false;
  let i = start;
  if (buf[i] === 45) {
    neg = true;
    i++;
  }
  let n = 0;
  for (; i < end; i++) n = n * 10 + (buf[i]! - 48);
  return neg ? -n : n;
}

/**
 * Parses one reply at `pos` of `buf[0, limit)`. Returns the position after
 * it, or -1 when those bytes do not hold the whole reply yet. Fills `out`.
 */
export function parseReply(buf: Buffer, pos: number, mode: ParseMode, out: Reply, limit = buf.length): number {
  if (pos >= limit) return -1;
  const t = buf[pos];
  const eol = readLine(buf, pos + 1, limit);
  if (eol === -1) return -1;
  const next = eol + 2;
  switch (t) {
    case 43: // +
      out.type = ReplyType.Simple;
      out.integer = 0;
      out.value = mode === ParseMode.Full ? buf.toString('latin1', pos + 1, eol) : undefined;
      return next;
    case 45: // -
      out.type = ReplyType.Error;
      out.integer = 0;
      out.value = buf.toString('latin1', pos + 1, eol);
      return next;
    case 58: // :
      out.type = ReplyType.Integer;
      out.integer = readInt(buf, pos + 1, eol);
      out.value = mode === ParseMode.Full ? out.integer : undefined;
      return next;
    case 36: {
      // $
      const len = readInt(buf, pos + 1, eol);
      out.type = ReplyType.Bulk;
      if (len < 0) {
        out.integer = -1;
        out.value = null;
        return next;
      }
      const end = next + len;
      if (end + 2 > limit) return -1;
      if (mode === ParseMode.Full) {
        out.integer = len;
        out.value = buf.toString('latin1', next, end);
      } else if (mode === ParseMode.Dots) {
        let n = 1;
        for (let i = next; i < end; i++) if (buf[i] === 46) n++;
        out.integer = n;
        out.value = undefined;
      } else {
        out.integer = len;
        out.value = undefined;
      }
      return end + 2;
    }
    case 42: {
      // *
      const count = readInt(buf, pos + 1, eol);
      out.type = ReplyType.Array;
      if (count < 0) {
        out.integer = -1;
        out.value = null;
        return next;
      }
      let p = next;
      if (mode === ParseMode.Spans) {
        if (keySpans.length < count * 2) keySpans = new Int32Array(count * 2);
        for (let i = 0; i < count; i++) {
          if (p >= limit) return -1;
          if (buf[p] !== 36) throw new Error(`protocol error: expected a bulk string at ${p}`);
          const e = readLine(buf, p + 1, limit);
          if (e === -1) return -1;
          const len = readInt(buf, p + 1, e);
          const start = e + 2;
          if (start + len + 2 > limit) return -1;
          keySpans[2 * i] = start;
          keySpans[2 * i + 1] = len;
          p = start + len + 2;
        }
        out.type = ReplyType.Array;
        out.integer = count;
        out.value = buf;
        return p;
      }
      if (mode === ParseMode.Full) {
        const items: unknown[] = [];
        const inner: Reply = { type: ReplyType.Simple, integer: 0, value: undefined };
        for (let i = 0; i < count; i++) {
          p = parseReply(buf, p, ParseMode.Full, inner, limit);
          if (p === -1) return -1;
          items.push(inner.type === ReplyType.Error ? new Error(String(inner.value)) : inner.value);
        }
        out.integer = count;
        out.value = items;
        return p;
      }
      const inner: Reply = scratch;
      for (let i = 0; i < count; i++) {
        p = parseReply(buf, p, ParseMode.Skip, inner, limit);
        if (p === -1) return -1;
      }
      out.type = ReplyType.Array;
      out.integer = count;
      out.value = undefined;
      return p;
    }
    default:
      throw new Error(`protocol error: unexpected byte ${t} at ${pos}`);
  }
}

const scratch: Reply = { type: ReplyType.Simple, integer: 0, value: undefined };

/** RESP encoding of a command (ASCII/latin1 arguments). */
export function encodeCommand(args: readonly string[]): string {
  let s = '*' + args.length + '\r\n';
  for (const a of args) s += '$' + a.length + '\r\n' + a + '\r\n';
  return s;
}
