/**
 * Reads the key counts an RDB file states about itself: the RESIZEDB opcode
 * after each SELECTDB holds the number of keys (and of keys with a TTL) the
 * database had when the snapshot was taken. Only the header is parsed: aux
 * fields are skipped until the first database, so a few kilobytes suffice.
 */

import { rdbVersionProblem, readRdbVersion } from './rdb-version';

export interface RdbCounts {
  /** RDB format version (REDIS0010 -> 10). */
  version: number;
  keys: number;
  keysWithExpiry: number;
  /** The writer's memory when it saved (aux field used-mem); null when the file does not say. */
  usedMemoryBytes: number | null;
  /** The writer's redis_version (aux field redis-ver); null when the file does not say. */
  redisVersion: string | null;
}

const OP_AUX = 0xfa;
const OP_RESIZEDB = 0xfb;
const OP_SELECTDB = 0xfe;
const OP_EOF = 0xff;
const OP_FUNCTION = 0xf5;
const OP_MODULE_AUX = 0xf7;

class NeedMore extends Error {}

/**
 * Counts from the start of an RDB file (`head`: its first bytes, enough to
 * reach the first RESIZEDB; null: more bytes are needed). An empty database
 * (no SELECTDB before EOF) counts 0. A version newer than the engine here
 * loads is refused (rdb-version.ts).
 */
export function readRdbCounts(head: Buffer): RdbCounts | null {
  const version = readRdbVersion(head);
  if (version === null) return null;
  // A newer format may have opcodes this reader does not know: refused before any is read.
  const tooNew = rdbVersionProblem(version);
  if (tooNew) throw new Error(tooNew);
  let pos = 9;
  const byte = () => {
    if (pos >= head.length) throw new NeedMore();
    return head[pos++]!;
  };
  const need = (n: number) => { if (pos + n > head.length) throw new NeedMore(); };
  /** A length; `encoded` tells a special string encoding apart. */
  const length = (): { len: number; encoded: boolean } => {
    const b = byte();
    const type = b >> 6;
    if (type === 0) return { len: b & 0x3f, encoded: false };
    if (type === 1) return { len: ((b & 0x3f) << 8) | byte(), encoded: false };
    if (type === 3) return { len: b & 0x3f, encoded: true };
    if (b === 0x80) { need(4); const v = head.readUInt32BE(pos); pos += 4; return { len: v, encoded: false }; }
    if (b === 0x81) { need(8); const v = Number(head.readBigUInt64BE(pos)); pos += 8; return { len: v, encoded: false }; }
    throw new Error(`unknown RDB length encoding 0x${b.toString(16)}`);
  };
  /** A string's value (null: LZF-compressed, skipped). */
  const readString = (): string | null => {
    const { len, encoded } = length();
    const take = (n: number) => { need(n); pos += n; return head.subarray(pos - n, pos); };
    if (!encoded) return take(len).toString('latin1');
    if (len === 0) return String(take(1).readInt8(0));
    if (len === 1) return String(take(2).readInt16LE(0));
    if (len === 2) return String(take(4).readInt32LE(0));
    if (len === 3) { const clen = length().len; length(); take(clen); return null; }
    throw new Error(`unknown RDB string encoding ${len}`);
  };
  /** What the aux fields say about the server that wrote the file. */
  let usedMemoryBytes: number | null = null;
  let redisVersion: string | null = null;
  try {
    for (;;) {
      const op = byte();
      if (op === OP_AUX) {
        const key = readString();
        const value = readString();
        if (key === 'used-mem' && value !== null && /^\d+$/.test(value)) usedMemoryBytes = Number(value);
        if (key === 'redis-ver' && value !== null) redisVersion = value;
        continue;
      }
      if (op === OP_EOF) return { version, keys: 0, keysWithExpiry: 0, usedMemoryBytes, redisVersion };
      if (op === OP_SELECTDB) {
        length();
        if (byte() !== OP_RESIZEDB) throw new Error('RDB without RESIZEDB after SELECTDB');
        const keys = length().len;
        const keysWithExpiry = length().len;
        return { version, keys, keysWithExpiry, usedMemoryBytes, redisVersion };
      }
      if (op === OP_FUNCTION || op === OP_MODULE_AUX) throw new Error(`RDB with functions or module data before the first database is not supported (opcode 0x${op.toString(16)})`);
      throw new Error(`unexpected RDB opcode 0x${op.toString(16)} before the first database`);
    }
  } catch (err) {
    if (err instanceof NeedMore) return null;
    throw err;
  }
}
