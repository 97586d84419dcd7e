import { describe, expect, it } from 'vitest';
import { readRdbCounts } from './rdb-header';

const aux = (k: string, v: Buffer) => Buffer.concat([Buffer.from([0xfa, k.length]), Buffer.from(k), v]);
const str = (s: string) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s)]);

describe('readRdbCounts', () => {
  const header = Buffer.concat([
    Buffer.from('REDIS0010'),
    aux('redis-ver', str('7.0.15')),
    aux('redis-bits', Buffer.from([0xc0, 64])),
    aux('ctime', Buffer.from([0xc2, 1, 2, 3, 4])),
    aux('used-mem', Buffer.from([0xc1, 1, 2])),
  ]);

  it('reads the key counts of the first database', () => {
    // SELECTDB 0, RESIZEDB 300 (14-bit length) 7.
    const rdb = Buffer.concat([header, Buffer.from([0xfe, 0, 0xfb, 0x41, 0x2c, 7, 0x00])]);
    expect(readRdbCounts(rdb)).toEqual({ version: 10, keys: 300, keysWithExpiry: 7, usedMemoryBytes: 0x0201, redisVersion: '7.0.15' });
  });

  it('counts 0 for an empty snapshot', () => {
    expect(readRdbCounts(Buffer.concat([header, Buffer.from([0xff])]))).toEqual({ version: 10, keys: 0, keysWithExpiry: 0, usedMemoryBytes: 513, redisVersion: '7.0.15' });
  });

  it('reads the writer\'s memory from used-mem, as a string when it does not fit an integer encoding', () => {
    const rdb = Buffer.concat([Buffer.from('REDIS0010'), aux('used-mem', str('12345678901')), Buffer.from([0xfe, 0, 0xfb, 1, 0])]);
    expect(readRdbCounts(rdb)).toMatchObject({ keys: 1, usedMemoryBytes: 12345678901 });
  });

  it('asks for more bytes when the header is cut short', () => {
    expect(readRdbCounts(header.subarray(0, 20))).toBeNull();
  });

  it('refuses what is not an RDB file', () => {
    expect(() => readRdbCounts(Buffer.from('HELLO WORLD, no rdb'))).toThrow(/not an RDB/);
  });

  it('skips LZF-compressed aux values by their compressed length', () => {
    const lzf = Buffer.concat([Buffer.from([0xc3, 3, 10]), Buffer.from([1, 2, 3])]);
    const rdb = Buffer.concat([Buffer.from('REDIS0010'), aux('x', lzf), Buffer.from([0xfe, 0, 0xfb, 5, 1])]);
    expect(readRdbCounts(rdb)).toEqual({ version: 10, keys: 5, keysWithExpiry: 1, usedMemoryBytes: null, redisVersion: null });
  });
});
