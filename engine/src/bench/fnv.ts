/**
 * YCSB's 64-bit FNV hash (site.ycsb.Utils.fnvhash64): FNV-1a style over the
 * 8 low-order bytes of a long, offset 0xCBF29CE484222325, prime
 * 1099511628211, then Math.abs. Computed on two 32-bit halves so the hot
 * path of the load generator does not allocate BigInts.
 */

/** 64-bit value as unsigned 32-bit halves. */
export interface U64 {
  hi: number;
  lo: number;
}

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** prime = 2^40 + 0x1b3 */
const PRIME_LOW = 0x1b3;
const TWO32 = 4294967296;

/** Hash of a non-negative integer keynum (< 2^53), as YCSB computes it. Result in `out`. */
export function fnvhash64Into(keynum: number, out: U64): U64 {
  let vhi = Math.floor(keynum / TWO32) >>> 0;
  let vlo = keynum >>> 0;
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (let i = 0; i < 8; i++) {
    const octet = vlo & 0xff;
    // val >> 8 (arithmetic in Java, but keynum is non-negative)
    vlo = ((vlo >>> 8) | ((vhi & 0xff) << 24)) >>> 0;
    vhi = vhi >>> 8;
    lo = (lo ^ octet) >>> 0;
    // (hi:lo) * (2^40 + 0x1b3) mod 2^64
    const loMul = lo * PRIME_LOW; // < 2^41, exact
    const carry = Math.floor(loMul / TWO32);
    const newLo = loMul >>> 0;
    const newHi = (hi * PRIME_LOW + carry + ((lo << 8) >>> 0)) % TWO32;
    hi = newHi >>> 0;
    lo = newLo;
  }
  // Math.abs on a signed long: negate when the sign bit is set.
  if (hi & 0x80000000) {
    lo = (~lo + 1) >>> 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  out.hi = hi;
  out.lo = lo;
  return out;
}

const scratch: U64 = { hi: 0, lo: 0 };

/** fnvhash64 as a BigInt (signed, like Java's long after Math.abs). */
export function fnvhash64(keynum: number): bigint {
  fnvhash64Into(keynum, scratch);
  return BigInt.asIntN(64, (BigInt(scratch.hi) << 32n) | BigInt(scratch.lo));
}

/** fnvhash64(keynum) % n for 0 < n < 2^37, without BigInt (Java's % on a non-negative long). */
export function fnvhash64Mod(keynum: number, n: number): number {
  fnvhash64Into(keynum, scratch);
  if (scratch.hi & 0x80000000) {
    // Long.MIN_VALUE stays negative after Math.abs; Java's % keeps the sign.
    return Number(fnvhash64(keynum) % BigInt(n));
  }
  let x = scratch.hi % n;
  x = (x * 65536) % n;
  x = (x * 65536) % n;
  return (x + (scratch.lo % n)) % n;
}

/** Decimal string of fnvhash64(keynum). */
export function fnvhash64String(keynum: number): string {
  fnvhash64Into(keynum, scratch);
  if (scratch.hi === 0) return String(scratch.lo);
  if (scratch.hi < 0x200000) return String(scratch.hi * TWO32 + scratch.lo);
  return fnvhash64(keynum).toString();
}
