/**
 * Writing RESP commands straight into a connection's output buffer: no
 * per-op strings to concatenate, flatten and encode (which cost more than
 * everything else in a pipelined GET/SET run).
 */

/** Something that writes one command at `off` and returns the new end; at most `maxBytes` long. */
export interface Encodable {
  readonly maxBytes: number;
  encode(buf: Buffer, off: number): number;
}

/** ASCII text, byte per char (keys and protocol words are short ASCII). */
export function writeAscii(buf: Buffer, off: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) buf[off + i] = s.charCodeAt(i);
  return off + n;
}

/** A non-negative integer in decimal. */
export function writeUint(buf: Buffer, off: number, n: number): number {
  if (n < 10) {
    buf[off] = 48 + n;
    return off + 1;
  }
  let digits = 0;
  for (let x = n; x > 0; x = Math.floor(x / 10)) digits++;
  let p = off + digits;
  for (let x = n; x > 0; x = Math.floor(x / 10)) buf[--p] = 48 + (x % 10);
  return off + digits;
}

/** Decimal digits of a non-negative integer. */
export function decimalDigits(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = (n - (n % 10)) / 10;
    d++;
  }
  return d;
}

/** `n` written as exactly `digits` decimal digits (decimalDigits(n)). */
export function writeDigits(buf: Buffer, off: number, n: number, digits: number): number {
  for (let p = off + digits - 1; p >= off; p--) {
    const d = n % 10;
    buf[p] = 48 + d;
    n = (n - d) / 10;
  }
  return off + digits;
}

function crlf(buf: Buffer, off: number): number {
  buf[off] = 13;
  buf[off + 1] = 10;
  return off + 2;
}

/** `$<len>\r\n<s>\r\n` for an ASCII string. */
export function writeBulkAscii(buf: Buffer, off: number, s: string): number {
  buf[off] = 36;
  off = crlf(buf, writeUint(buf, off + 1, s.length));
  return crlf(buf, writeAscii(buf, off, s));
}

/** `$<len>\r\n<bytes>\r\n` copied from `src[start, start+len)`. */
export function writeBulkBytes(buf: Buffer, off: number, src: Buffer, start: number, len: number): number {
  buf[off] = 36;
  off = crlf(buf, writeUint(buf, off + 1, len));
  src.copy(buf, off, start, start + len);
  return crlf(buf, off + len);
}

/** `$<len>\r\n<bytes>\r\n` of a whole buffer (Uint8Array.set: a memcpy, where Buffer.copy's JS wrapper costs more than the bytes). */
export function writeBulkView(buf: Buffer, off: number, src: Uint8Array): number {
  buf[off] = 36;
  off = crlf(buf, writeUint(buf, off + 1, src.length));
  buf.set(src, off);
  return crlf(buf, off + src.length);
}

/** Bytes of a bulk string of `len` bytes, upper bound of its header included. */
export const bulkBytes = (len: number): number => len + 16;
