/** Redis Cluster key slot: CRC16-CCITT (XModem) of the key (or its {hash tag}) mod 16384. */
const TABLE = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let crc = i << 8;
  for (let j = 0; j < 8; j++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  TABLE[i] = crc;
}

function crc16(s: string, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ s.charCodeAt(i)) & 0xff]!;
  return crc;
}

/** Slot of an ASCII key (benchmark keys are ASCII). */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key, open + 1, close) & 16383;
  }
  return crc16(key, 0, key.length) & 16383;
}
