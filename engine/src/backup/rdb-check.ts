/**
 * Whether an RDB file is whole, checked while it streams by (never held in
 * memory): it must end with the EOF opcode and the CRC-64 Redis writes
 * after it (CRC-64/Jones, little-endian), and that checksum must be the one
 * of every byte before it. A truncated file or a flipped byte fails the
 * check; a file written with `rdbchecksum no` (checksum 0) is checked for
 * its EOF opcode only, as Redis itself does when it loads one.
 */

/**
 * Jones' polynomial 0xad93d23594c935a9, reflected (Redis's crc64.c), as 32-bit halves (int32 arithmetic: fast in
 * V8), in eight tables: eight bytes are folded in per step (slicing-by-8, as Redis's crcspeed does).
 */
const POLY_HI = 0x95ac9329 | 0;
const POLY_LO = 0xac4bc9b5 | 0;
const HI = Array.from({ length: 8 }, () => new Int32Array(256));
const LO = Array.from({ length: 8 }, () => new Int32Array(256));
for (let i = 0; i < 256; i++) {
  let hi = 0;
  let lo = i;
  for (let b = 0; b < 8; b++) {
    const odd = lo & 1;
    lo = (lo >>> 1) | (hi << 31);
    hi >>>= 1;
    if (odd) { hi ^= POLY_HI; lo ^= POLY_LO; }
  }
  HI[0]![i] = hi;
  LO[0]![i] = lo;
}
// Table k: the CRC of a byte followed by k zero bytes.
for (let k = 1; k < 8; k++) {
  for (let i = 0; i < 256; i++) {
    const hi = HI[k - 1]![i]!;
    const lo = LO[k - 1]![i]!;
    const idx = lo & 0xff;
    LO[k]![i] = ((lo >>> 8) | (hi << 24)) ^ LO[0]![idx]!;
    HI[k]![i] = (hi >>> 8) ^ HI[0]![idx]!;
  }
}
const [H0, H1, H2, H3, H4, H5, H6, H7] = HI as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
const [L0, L1, L2, L3, L4, L5, L6, L7] = LO as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];

/** Redis's CRC-64, fed in pieces. */
export class Crc64 {
  private hi = 0;
  private lo = 0;

  update(buf: Uint8Array): this {
    let hi = this.hi | 0;
    let lo = this.lo | 0;
    const n = buf.length;
    let i = 0;
    for (; i + 8 <= n; i += 8) {
      lo ^= buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24);
      hi ^= buf[i + 4]! | (buf[i + 5]! << 8) | (buf[i + 6]! << 16) | (buf[i + 7]! << 24);
      const nlo = L7[lo & 0xff]! ^ L6[(lo >>> 8) & 0xff]! ^ L5[(lo >>> 16) & 0xff]! ^ L4[lo >>> 24]! ^ L3[hi & 0xff]! ^ L2[(hi >>> 8) & 0xff]! ^ L1[(hi >>> 16) & 0xff]! ^ L0[hi >>> 24]!;
      hi = H7[lo & 0xff]! ^ H6[(lo >>> 8) & 0xff]! ^ H5[(lo >>> 16) & 0xff]! ^ H4[lo >>> 24]! ^ H3[hi & 0xff]! ^ H2[(hi >>> 8) & 0xff]! ^ H1[(hi >>> 16) & 0xff]! ^ H0[hi >>> 24]!;
      lo = nlo;
    }
    for (; i < n; i++) {
      const idx = (lo ^ buf[i]!) & 0xff;
      lo = ((lo >>> 8) | (hi << 24)) ^ L0[idx]!;
      hi = (hi >>> 8) ^ H0[idx]!;
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
