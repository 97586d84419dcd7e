/**
 * YCSB records: `field0`..`field9`, each 100 printable bytes (so `.` occurs,
 * as in YCSB's RandomByteIterator). Values come from a seeded pool so a
 * run is reproducible and cheap to generate.
 */
import { Rng } from './random';

export const FIELD_COUNT = 10;
export const FIELD_LENGTH = 100;
export const FIELD_NAMES: readonly string[] = Array.from({ length: FIELD_COUNT }, (_, i) => `field${i}`);

/** ValuePool: values per pool, the seed's mix for the pool's Rng, the multiplier of the index hash. */
export const VALUE_POOL_SIZE = 4096;
export const VALUE_POOL_SEED_XOR = 0x5eed;
export const VALUE_POOL_HASH = 0x45d9f3b;

/**
 * The pool value an op writes into one field: an insert writes value
 * keynum * FIELD_COUNT + field into each field, an update the next one, a
 * read-modify-write the one after (so each kind's bytes differ).
 */
export const VALUE_OFFSET = { insert: 0, update: 1, rmw: 2 } as const;
export const valueIndex = (kind: keyof typeof VALUE_OFFSET, keynum: number, field: number): number => keynum * FIELD_COUNT + field + VALUE_OFFSET[kind];

/** A printable ASCII string (0x20..0x7e) of `length` bytes. */
export function randomPrintable(rng: Rng, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(32 + (rng.nextU32() % 95));
  return s;
}

/** A pool of field values; value(i) is deterministic for a given seed. */
export class ValuePool {
  private readonly values: string[];
  /** The same values back to back (latin1), for writing into a command buffer without building strings. */
  readonly bytes: Buffer;
  constructor(
    seed: number,
    readonly length = FIELD_LENGTH,
    size = VALUE_POOL_SIZE,
  ) {
    const rng = new Rng(seed ^ VALUE_POOL_SEED_XOR);
    this.values = Array.from({ length: size }, () => randomPrintable(rng, length));
    this.bytes = Buffer.from(this.values.join(''), 'latin1');
  }
  private slot(index: number): number {
    const h = Math.imul(index ^ (index >>> 16), VALUE_POOL_HASH) >>> 0;
    return h % this.values.length;
  }
  /** Deterministic value for an index (e.g. keynum * FIELD_COUNT + field). */
  at(index: number): string {
    return this.values[this.slot(index)]!;
  }
  /** Byte offset of at(index) in `bytes`. */
  offsetOf(index: number): number {
    return this.slot(index) * this.length;
  }
  private views: Buffer[] | undefined;
  /** at(index) as a view of `bytes` (made once per value: copying from it is a plain memcpy). */
  view(index: number): Buffer {
    const views = (this.views ??= this.values.map((_, i) => this.bytes.subarray(i * this.length, (i + 1) * this.length)));
    return views[this.slot(index)]!;
  }
  get size(): number {
    return this.values.length;
  }
}

/** The record loaded for keynum: [field, value] pairs, deterministic for the pool. */
export function recordFields(pool: ValuePool, keynum: number): string[] {
  const out: string[] = [];
  for (let f = 0; f < FIELD_COUNT; f++) out.push(FIELD_NAMES[f]!, pool.at(valueIndex('insert', keynum, f)));
  return out;
}
