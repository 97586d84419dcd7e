/**
 * The hash slot of a key, as Redis Cluster computes it: CRC16 (XMODEM) of
 * the key, or of its hash tag (the part between the first `{` and the next
 * `}`, when not empty), modulo 16384.
 */
import { SLOT_COUNT } from './slots.planner';

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

export function crc16(buf: Uint8Array, start = 0, end = buf.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ buf[i]!) & 0xff]!;
  return crc;
}

export function keySlot(key: Buffer | string): number {
  const buf = typeof key === 'string' ? Buffer.from(key) : key;
  const open = buf.indexOf(0x7b /* { */);
  if (open >= 0) {
    const close = buf.indexOf(0x7d /* } */, open + 1);
    if (close > open + 1) return crc16(buf, open + 1, close) % SLOT_COUNT;
  }
  return crc16(buf) % SLOT_COUNT;
}
