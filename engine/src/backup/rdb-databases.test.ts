import { describe, expect, it } from 'vitest';
import { isRdbDatabasesError, RdbDatabaseScan, rdbDatabasesProblem } from './rdb-databases';

const str = (s: string | Buffer) => { const b = Buffer.from(s); if (b.length >= 64) throw new Error('short strings only'); return Buffer.concat([Buffer.from([b.length]), b]); };
/** A small RDB by hand: aux fields, then each database's RESIZEDB and keys (a string, a hash of listpack encoding, one with a TTL). */
function rdb(dbs: [number, number][]): Buffer {
  const parts: Buffer[] = [Buffer.from('REDIS0010'), Buffer.from([0xfa]), str('redis-ver'), str('7.0.15'), Buffer.from([0xfa]), str('ctime'), Buffer.from([0xc2, 1, 2, 3, 4])];
  for (const [db, keys] of dbs) {
    parts.push(Buffer.from([0xfe, db, 0xfb, keys, 1]));
    for (let i = 0; i < keys; i++) {
      if (i === 0) parts.push(Buffer.from([0xfc]), Buffer.alloc(8, 1));
      parts.push(i % 2 ? Buffer.concat([Buffer.from([16]), str(`h${i}`), str(Buffer.alloc(30, 7))]) : Buffer.concat([Buffer.from([0]), str(`k${i}`), str(`value ${i}`)]));
    }
  }
  parts.push(Buffer.from([0xff]), Buffer.alloc(8));
  return Buffer.concat(parts);
}
const scan = (b: Buffer, step: number) => {
  const s = new RdbDatabaseScan();
  for (let i = 0; i < b.length; i += step) s.update(b.subarray(i, i + step));
  return s;
};

describe('RdbDatabaseScan', () => {
  it.each([1, 2, 7, 1000])('lists the databases and their keys, fed %i bytes at a time', (step) => {
    const s = scan(rdb([[0, 5], [3, 2]]), step);
    expect(s.complete).toBe(true);
    expect([...s.databases]).toEqual([[0, 5], [3, 2]]);
  });

  it('finds nothing outside database 0 in a file of database 0 only, and no database in an empty file', () => {
    expect(rdbDatabasesProblem(scan(rdb([[0, 4]]), 3).databases)).toBeNull();
    const empty = scan(rdb([]), 5);
    expect(empty.complete).toBe(true);
    expect(empty.databases.size).toBe(0);
  });

  it('names every database found when one is not 0', () => {
    const problem = rdbDatabasesProblem(scan(rdb([[0, 5], [3, 2], [9, 1]]), 4).databases)!;
    expect(problem).toMatch(/^rdb_databases_unsupported: the file has keys in database 0 \(5 keys\), database 3 \(2 keys\), database 9 \(1 keys\); a cluster has database 0 only/);
    expect(isRdbDatabasesError(`shard 1: ${problem}`)).toBe(true);
  });

  it('refuses what it cannot read as an RDB value', () => {
    const b = rdb([[0, 1]]);
    b[b.indexOf(Buffer.from([0xfe, 0, 0xfb])) + 5 + 9] = 0x42;
    expect(() => scan(b, 100)).toThrow(/unknown RDB value type 66/);
  });
});
