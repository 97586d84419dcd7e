import { describe, expect, it } from 'vitest';
import { MAX_RDB_VERSION, isRdbVersionError, rdbVersionOfRedis, rdbVersionProblem, readRdbVersion } from './rdb-version';
import { readRdbCounts } from './rdb-header';

/** An RDB of `version` holding one empty database 0 (SELECTDB 0, RESIZEDB 0 0, EOF). */
const rdb = (version: string) => Buffer.concat([Buffer.from(`REDIS${version}`), Buffer.from([0xfe, 0, 0xfb, 0, 0, 0xff])]);

describe('RDB versions', () => {
  it('reads the version from the header', () => {
    expect(readRdbVersion(rdb('0010'))).toBe(10);
    expect(readRdbVersion(rdb('0011'))).toBe(11);
    expect(readRdbVersion(Buffer.from('REDIS00'))).toBeNull();
    expect(() => readRdbVersion(Buffer.from('NOTRDB0010'))).toThrow(/not an RDB/);
    expect(() => readRdbVersion(Buffer.from('REDIS00x1'))).toThrow(/bad version/);
  });

  it('redis-server 7.0 loads up to 10; a newer file is refused naming the version found and the highest supported', () => {
    expect(MAX_RDB_VERSION).toBe(10);
    expect(rdbVersionProblem(9)).toBeNull();
    expect(rdbVersionProblem(10)).toBeNull();
    const p = rdbVersionProblem(11)!;
    expect(p).toMatch(/^rdb_version_unsupported: RDB version 11 .* up to 10/);
    expect(isRdbVersionError(`import: ${p}`)).toBe(true);
    expect(isRdbVersionError('storage: full')).toBe(false);
  });

  it('reading the key counts refuses a newer file before its opcodes (they may be ones this reader does not know)', () => {
    expect(readRdbCounts(rdb('0010'))).toMatchObject({ version: 10, keys: 0, keysWithExpiry: 0 });
    expect(readRdbCounts(rdb('0006'))).toMatchObject({ version: 6, keys: 0, keysWithExpiry: 0 });
    const newer = Buffer.concat([Buffer.from('REDIS0012'), Buffer.from([0xf4, 1, 2, 3])]);
    expect(() => readRdbCounts(newer)).toThrow(/rdb_version_unsupported: RDB version 12/);
  });

  it('knows which RDB version a Redis release writes', () => {
    expect(rdbVersionOfRedis('7.0.15')).toBe(10);
    expect(rdbVersionOfRedis('6.2.14')).toBe(9);
    expect(rdbVersionOfRedis('7.2.4')).toBe(11);
    expect(rdbVersionOfRedis('7.4.1')).toBe(12);
    expect(rdbVersionOfRedis('8.0.2')).toBe(12);
    expect(rdbVersionOfRedis('2.4.0')).toBeNull();
    expect(rdbVersionOfRedis('unknown')).toBeNull();
  });
});
