/**
 * YCSB records: `field0`..`field9`, each 100 printable bytes (so `.` occurs,
 * as in YCSB's RandomByteIterator). Values come from a seeded pool so a
 * run is reproducible and cheap to generate.
 */
import { Rng } from './random';

export const FIELD_COUNT = 10;
export const FIELD_LENGTH = 100;
export const FIELD_NAMES: readonly string[] = Array.from({ length: FIELD_COUNT }, (_, i) => `field${i}`);

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
    size = 4096,
  ) {
    const rng = new Rng(seed ^ 0x5eed);
    this.values = Array.from({ length: size }, () => randomPrintable(rng, length));
    this.bytes = Buffer.from(this.values.join(''), 'latin1');
  }
  private slot(index: number): number {
    const h = Math.imul(index ^ (index >>> 16), 0x45d9f3b) >>> 0;
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
  for (let f = 0; f < FIELD_COUNT; f++) out.push(FIELD_NAMES[f]!, pool.at(keynum * FIELD_COUNT + f));
  return out;
}
