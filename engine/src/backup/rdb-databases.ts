/**
 * Which databases an RDB file holds keys in, read while it streams by. A
 * Redis Cluster has database 0 only: a file with keys in another database
 * (SELECT n in the file) would load them where no cluster client sees them,
 * or lose them when keys are moved by slot, so such a file is refused
 * (`rdbDatabasesProblem`). The databases follow one another in the file, so
 * every key is stepped over (strings skipped by their length, never held:
 * memory stays a few bytes whatever the file's size) until the EOF opcode.
 * Knows the RDB layout up to version 10 (Redis 7.0) and the stream type
 * 7.2 adds; anything else is reported as an unreadable file.
 */

const OP = { FUNCTION2: 0xf5, FUNCTION: 0xf6, MODULE_AUX: 0xf7, IDLE: 0xf8, FREQ: 0xf9, AUX: 0xfa, RESIZEDB: 0xfb, EXPIRETIME_MS: 0xfc, EXPIRETIME: 0xfd, SELECTDB: 0xfe, EOF: 0xff } as const;

/** One step of stepping over a value. */
type Step =
  | { k: 'str' }
  | { k: 'len' }
  | { k: 'bytes'; n: number }
  | { k: 'dbl' }
  | { k: 'module' }
  /** Reads a count, then does `body` that many times. */
  | { k: 'count'; body: readonly Step[] }
  | { k: 'repeat'; left: number; body: readonly Step[] };

const STR: Step = { k: 'str' };
const LEN: Step = { k: 'len' };
const B8: Step = { k: 'bytes', n: 8 };
const B16: Step = { k: 'bytes', n: 16 };
const count = (...body: Step[]): Step => ({ k: 'count', body });

/** A stream's fields after its listpacks (type 15: v1, 19: v2, 21: v3). */
function streamSteps(type: number): Step[] {
  const v2 = type >= 19;
  const v3 = type >= 21;
  const consumer: Step[] = [STR, B8, ...(v3 ? [B8] : []), count(B16)];
  const group: Step[] = [STR, LEN, LEN, ...(v2 ? [LEN] : []), count(B16, B8, LEN), count(...consumer)];
  return [count(STR, STR), LEN, LEN, LEN, ...(v2 ? [LEN, LEN, LEN, LEN, LEN] : []), count(...group)];
}

/** The steps of a value of RDB type `type` (after its key). */
function valueSteps(type: number): Step[] {
  switch (type) {
    case 0: case 9: case 10: case 11: case 12: case 13: case 16: case 17: case 20: return [STR];
    case 1: case 2: case 14: return [count(STR)];
    case 3: return [count(STR, { k: 'dbl' })];
    case 4: return [count(STR, STR)];
    case 5: return [count(STR, B8)];
    case 7: return [LEN, { k: 'module' }];
    case 18: return [count(LEN, STR)];
    case 15: case 19: case 21: return streamSteps(type);
    default: throw new Error(`unknown RDB value type ${type}`);
  }
}

class NeedMore extends Error {}
const NEED_MORE = new NeedMore();

export class RdbDatabaseScan {
  /** Keys per database, from each database's RESIZEDB header. */
  readonly databases = new Map<number, number>();
  private db = 0;
  /** The steps left of the value being stepped over (last: next). */
  private readonly steps: Step[] = [];
  /** Bytes still to skip (a string's payload). */
  private skip = 0;
  /** Bytes of an unfinished read, kept for the next chunk (a few bytes at most). */
  private pending = Buffer.alloc(0);
  private offset = 9;
  private ended = false;

  /** Whether the EOF opcode was reached. */
  get complete(): boolean {
    return this.ended;
  }

  update(chunk: Buffer): void {
    if (this.ended) return;
    // The RDB magic and version (checked elsewhere: readRdbCounts).
    if (this.offset > 0) {
      const n = Math.min(this.offset, chunk.length);
      this.offset -= n;
      chunk = chunk.subarray(n);
    }
    if (this.pending.length) {
      // An unfinished read: finish it with the chunk's first bytes, then go on in the chunk itself.
      const joined = Buffer.concat([this.pending, chunk.subarray(0, 64)]);
      const stop = this.pending.length;
      const at = this.run(joined, 0, stop);
      if (at < stop) {
        this.pending = Buffer.from(joined.subarray(at));
        if (chunk.length > 64) throw new Error('RDB scan: a read longer than 64 bytes'); // cannot happen: reads are at most 19 bytes
        return;
      }
      this.pending = Buffer.alloc(0);
      chunk = chunk.subarray(at - stop);
    }
    const at = this.run(chunk, 0, chunk.length);
    if (at < chunk.length) this.pending = Buffer.from(chunk.subarray(at));
  }

  /** Parses `buf` from `pos` until `stop` is reached (at a step's end) or more bytes are needed; returns where it stopped. */
  private run(buf: Buffer, pos: number, stop: number): number {
    const end = buf.length;
    let p = pos;
    const need = (n: number) => { if (p + n > end) throw NEED_MORE; };
    const len = (): number => {
      need(1);
      const b = buf[p]!;
      const t = b >> 6;
      if (t === 0) { p += 1; return b & 0x3f; }
      if (t === 1) { need(2); p += 2; return ((b & 0x3f) << 8) | buf[p - 1]!; }
      if (b === 0x80) { need(5); p += 5; return buf.readUInt32BE(p - 4); }
      if (b === 0x81) { need(9); p += 9; return Number(buf.readBigUInt64BE(p - 8)); }
      throw new Error(`unreadable RDB length 0x${b.toString(16)} at a value`);
    };
    /** A string's header; returns its payload length (to skip). */
    const str = (): number => {
      need(1);
      const b = buf[p]!;
      if (b >> 6 !== 3) return len();
      p += 1;
      const enc = b & 0x3f;
      if (enc === 0) return 1;
      if (enc === 1) return 2;
      if (enc === 2) return 4;
      if (enc === 3) { const clen = len(); len(); return clen; }
      throw new Error(`unreadable RDB string encoding ${enc}`);
    };
    while (!this.ended) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, end - p);
        this.skip -= n;
        p += n;
        if (this.skip > 0) return p;
      }
      if (p >= stop) return p;
      const start = p;
      const step = this.steps.pop();
      try {
        if (!step) {
          this.top(() => { need(1); return buf[p++]!; }, len);
          continue;
        }
        switch (step.k) {
          case 'str': this.skip = str(); break;
          case 'len': len(); break;
          case 'bytes': need(step.n); p += step.n; break;
          case 'dbl': { need(1); const n = buf[p]!; p += 1; if (n < 253) this.skip = n; break; }
          case 'module': {
            const op = len();
            if (op === 0) break;
            this.steps.push(step);
            if (op === 1 || op === 2) this.steps.push(LEN);
            else if (op === 3) this.steps.push({ k: 'bytes', n: 4 });
            else if (op === 4) this.steps.push(B8);
            else if (op === 5) this.steps.push(STR);
            else throw new Error(`unreadable RDB module value opcode ${op}`);
            break;
          }
          case 'count': {
            const n = len();
            if (n > 0) this.steps.push({ k: 'repeat', left: n, body: step.body });
            break;
          }
          case 'repeat': {
            if (--step.left > 0) this.steps.push(step);
            for (let i = step.body.length - 1; i >= 0; i--) this.steps.push(step.body[i]!);
            break;
          }
        }
      } catch (err) {
        if (err !== NEED_MORE) throw err;
        // The unfinished step changed nothing yet: it is read again, whole, once more bytes came.
        if (step) this.steps.push(step);
        return start;
      }
    }
    return end;
  }

  /** An opcode at the top level (between keys). */
  private top(byte: () => number, len: () => number): void {
    const op = byte();
    switch (op) {
      case OP.EOF: this.ended = true; return;
      case OP.SELECTDB: this.db = len(); return;
      case OP.RESIZEDB: { const keys = len(); len(); this.databases.set(this.db, keys); return; }
      case OP.AUX: this.steps.push(STR, STR); return;
      case OP.EXPIRETIME: this.steps.push({ k: 'bytes', n: 4 }); return;
      case OP.EXPIRETIME_MS: this.steps.push(B8); return;
      case OP.FREQ: this.steps.push({ k: 'bytes', n: 1 }); return;
      case OP.IDLE: this.steps.push(LEN); return;
      case OP.MODULE_AUX: this.steps.push({ k: 'module' }, LEN); return;
      case OP.FUNCTION2: this.steps.push(STR); return;
      case OP.FUNCTION: throw new Error('RDB with functions of an old format (opcode 0xf6) is not supported');
      default: {
        const value = valueSteps(op);
        // A database with keys but no RESIZEDB header (older writers) is still counted as present.
        if (!this.databases.has(this.db)) this.databases.set(this.db, 0);
        for (let i = value.length - 1; i >= 0; i--) this.steps.push(value[i]!);
        this.steps.push(STR);
      }
    }
  }
}

/** Why a file with these databases cannot be restored into a cluster (null: keys in database 0 only). The message starts with the error's code. */
export function rdbDatabasesProblem(databases: ReadonlyMap<number, number>): string | null {
  const others = [...databases].filter(([db]) => db !== 0).sort(([a], [b]) => a - b);
  if (!others.length) return null;
  const list = [...databases].sort(([a], [b]) => a - b).map(([db, keys]) => `database ${db} (${keys} keys)`).join(', ');
  return `rdb_databases_unsupported: the file has keys in ${list}; a cluster has database 0 only. Move the keys into database 0 (MOVE, or SWAPDB when database 0 is empty) and save again`;
}

/** Whether an agent's error message is a refusal of other databases (rdbDatabasesProblem). */
export const isRdbDatabasesError = (message: string) => message.includes('rdb_databases_unsupported: ');
