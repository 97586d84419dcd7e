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

/** FNV-1a's 64-bit offset basis and prime, as YCSB's Utils.fnvhash64 uses them. */
export const FNV_OFFSET_BASIS = 0xcbf29ce484222325n;
export const FNV_PRIME = 1099511628211n;

const OFFSET_HI = Number(FNV_OFFSET_BASIS >> 32n);
const OFFSET_LO = Number(FNV_OFFSET_BASIS & 0xffffffffn);
/** prime = 2^40 + 0x1b3: the multiplication below adds h * 0x1b3 and h shifted by 40 bits */
const PRIME_LOW = Number(FNV_PRIME - (1n << 40n));
const TWO32 = 4294967296;

/** Hash of a non-negative integer keynum (< 2^53), as YCSB computes it. Result in `out`. */
export function fnvhash64Into(keynum: number, out: U64): U64 {
  const vlo = keynum >>> 0;
  const vhi = Math.floor(keynum / TWO32) >>> 0;
  // the hash as four 16-bit limbs, h0 lowest; prime = 2^40 + 0x1b3
  let h0 = OFFSET_LO & 0xffff;
  let h1 = OFFSET_LO >>> 16;
  let h2 = OFFSET_HI & 0xffff;
  let h3 = OFFSET_HI >>> 16;
  for (let i = 0; i < 8; i++) {
    const octet = (i < 4 ? vlo >>> (8 * i) : vhi >>> (8 * (i - 4))) & 0xff;
    h0 ^= octet;
    const t0 = h0 * PRIME_LOW;
    const t1 = h1 * PRIME_LOW + (t0 >>> 16);
    const t2 = h2 * PRIME_LOW + h0 * 0x100 + (t1 >>> 16);
    const t3 = h3 * PRIME_LOW + h1 * 0x100 + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  let hi = ((h3 << 16) | h2) >>> 0;
  let lo = ((h1 << 16) | h0) >>> 0;
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
  if (scratch.hi < 0x200000) return String(scratch.hi * TWO32 + scratch.lo);
  if (scratch.hi & 0x80000000) return fnvhash64(keynum).toString(); // only Long.MIN_VALUE stays negative
  return u64ToDecimal(scratch.hi, scratch.lo);
}

const GROUP = 10_000_000;
const limbs = new Array<number>(4);

/** Unsigned 64-bit (hi:lo) to decimal by long division of 16-bit limbs by 10^7 (no BigInt). */
export function u64ToDecimal(hi: number, lo: number): string {
  limbs[0] = hi >>> 16;
  limbs[1] = hi & 0xffff;
  limbs[2] = lo >>> 16;
  limbs[3] = lo & 0xffff;
  let out = '';
  for (;;) {
    let r = 0;
    let zero = true;
    for (let i = 0; i < 4; i++) {
      const cur = r * 65536 + limbs[i]!;
      const q = Math.floor(cur / GROUP);
      r = cur - q * GROUP;
      limbs[i] = q;
      if (q !== 0) zero = false;
    }
    if (zero) return String(r) + out;
    out = String(r).padStart(7, '0') + out;
  }
}
