import { describe, expect, it } from 'vitest';
import { Crc64, RdbTrailerCheck } from './rdb-check';

/** A small RDB (one empty database) ending with EOF and its CRC-64, as Redis writes it. */
function rdb(): Buffer {
  const body = Buffer.concat([Buffer.from('REDIS0010'), Buffer.from([0xfe, 0, 0xfb, 0, 0, 0xff])]);
  return Buffer.concat([body, new Crc64().update(body).digest()]);
}

const check = (file: Buffer, pieces = 3) => {
  const c = new RdbTrailerCheck();
  const step = Math.max(1, Math.ceil(file.length / pieces));
  for (let i = 0; i < file.length; i += step) c.update(file.subarray(i, i + step));
  return c.problem();
};

describe('RDB file check', () => {
  it("computes Redis's CRC-64 (crc64.c's test vector), in pieces", () => {
    expect(new Crc64().update(Buffer.from('123456789')).digest().readBigUInt64LE()).toBe(0xe9c6d914c4b8d9can);
    expect(new Crc64().update(Buffer.from('1234')).update(Buffer.from('56789')).digest()).toEqual(new Crc64().update(Buffer.from('123456789')).digest());
  });

  it('folds eight bytes at a time to the same CRC as one byte at a time, at every alignment', () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7919 + (i >> 3)) & 0xff));
    const bytewise = new Crc64();
    for (const b of data) bytewise.update(Buffer.from([b]));
    for (const cut of [0, 1, 3, 7, 8, 9, 500, 999]) expect(new Crc64().update(data.subarray(0, cut)).update(data.subarray(cut)).digest()).toEqual(bytewise.digest());
  });

  it('accepts a whole file however it is cut', () => {
    for (const pieces of [1, 2, 5, 24]) expect(check(rdb(), pieces)).toBeNull();
  });

  it('refuses a flipped byte, a truncated file and what is no RDB', () => {
    const bad = rdb();
    bad[10]! ^= 0x01;
    expect(check(bad)).toMatch(/damaged or truncated: its CRC-64 is [0-9a-f]{16} but the file says [0-9a-f]{16}/);
    expect(check(rdb().subarray(0, 20))).toMatch(/truncated, or not an RDB/);
    expect(check(rdb().subarray(0, 12))).toMatch(/too short/);
    expect(check(Buffer.from('x'.repeat(100)))).toMatch(/does not end with the RDB EOF marker/);
  });

  it('takes a checksum of 0 as written without checksums (rdbchecksum no), then checks the EOF marker only', () => {
    const file = rdb();
    file.fill(0, file.length - 8);
    expect(check(file)).toBeNull();
  });
});
