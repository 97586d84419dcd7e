/**
 * Whether an RDB file is whole, checked while it streams by (never held in
 * memory): it must end with the EOF opcode and the CRC-64 Redis writes
 * after it (CRC-64/Jones, little-endian), and that checksum must be the one
 * of every byte before it. A truncated file or a flipped byte fails the
 * check; a file written with `rdbchecksum no` (checksum 0) is checked for
 * its EOF opcode only, as Redis itself does when it loads one.
 */

/** Jones' polynomial 0xad93d23594c935a9, reflected (Redis's crc64.c), as 32-bit halves (int32 arithmetic: fast in V8). */
const POLY_HI = 0x95ac9329 | 0;
const POLY_LO = 0xac4bc9b5 | 0;
const TABLE_HI = new Int32Array(256);
const TABLE_LO = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  let hi = 0;
  let lo = i;
  for (let b = 0; b < 8; b++) {
    const odd = lo & 1;
    lo = (lo >>> 1) | (hi << 31);
    hi >>>= 1;
    if (odd) { hi ^= POLY_HI; lo ^= POLY_LO; }
  }
  TABLE_HI[i] = hi;
  TABLE_LO[i] = lo;
}

/** Redis's CRC-64, fed in pieces. */
export class Crc64 {
  private hi = 0;
  private lo = 0;

  update(buf: Uint8Array): this {
    let hi = this.hi | 0;
    let lo = this.lo | 0;
    const n = buf.length;
    for (let i = 0; i < n; i++) {
      const idx = (lo ^ buf[i]!) & 0xff;
      lo = ((lo >>> 8) | (hi << 24)) ^ TABLE_LO[idx]!;
      hi = (hi >>> 8) ^ TABLE_HI[idx]!;
    }
    this.hi = hi;
    this.lo = lo;
    return this;
  }

  /** The checksum as Redis stores it after EOF: 8 bytes, little-endian. */
  digest(): Buffer {
    const out = Buffer.alloc(8);
    out.writeInt32LE(this.lo, 0);
    out.writeInt32LE(this.hi, 4);
    return out;
  }
}

const OP_EOF = 0xff;
const TRAILER = 8;

/** Feed a file's bytes in order, then ask `problem()`: null when the file ends as a whole RDB does. */
export class RdbTrailerCheck {
  private readonly crc = new Crc64();
  /** The last bytes seen, held back from the checksum until it is known they are not the stored checksum. */
  private tail = Buffer.alloc(0);
  private bytes = 0;
  /** The last byte the checksum covers (the EOF opcode in a whole file). */
  private lastCovered: number | undefined;

  update(chunk: Buffer): void {
    this.bytes += chunk.length;
    const all = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    if (all.length <= TRAILER) {
      this.tail = Buffer.from(all);
      return;
    }
    const covered = all.subarray(0, all.length - TRAILER);
    this.crc.update(covered);
    this.lastCovered = covered[covered.length - 1];
    this.tail = Buffer.from(all.subarray(all.length - TRAILER));
  }

  /** Why the file is not a whole RDB (null: it is). Call once every byte was fed. */
  problem(): string | null {
    // The magic and version (9 bytes), at least EOF, and the checksum.
    if (this.bytes < 9 + 1 + TRAILER) return `it is too short to be an RDB file (${this.bytes} bytes)`;
    if (this.lastCovered !== OP_EOF) return 'it does not end with the RDB EOF marker and checksum: it is truncated, or not an RDB file';
    const stored = this.tail;
    if (stored.equals(Buffer.alloc(TRAILER))) return null;
    const expected = this.crc.digest();
    if (!stored.equals(expected)) return `it is damaged or truncated: its CRC-64 is ${expected.toString('hex')} but the file says ${stored.toString('hex')}`;
    return null;
  }
}
