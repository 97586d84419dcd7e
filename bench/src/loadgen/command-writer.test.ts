import { describe, expect, it } from 'vitest';
import { decimalDigits, writeAscii, writeBulkAscii, writeBulkBytes, writeDigits, writeUint } from './command-writer';
import { encodeCommand } from './resp';

describe('command writer', () => {
  it('writes the same bytes as the string encoder', () => {
    const buf = Buffer.alloc(512);
    const value = Buffer.from('xx' + 'a.b c'.repeat(20) + 'yy', 'latin1');
    let off = writeAscii(buf, 0, '*3\r\n$3\r\nSET\r\n');
    off = writeBulkAscii(buf, off, 'memtier-1234567');
    off = writeBulkBytes(buf, off, value, 2, 100);
    expect(buf.toString('latin1', 0, off)).toBe(encodeCommand(['SET', 'memtier-1234567', value.toString('latin1', 2, 102)]));
  });

  it('writes integers of every length', () => {
    const buf = Buffer.alloc(32);
    for (const n of [0, 7, 10, 99, 100, 12345, 1_000_000, 2 ** 40]) {
      expect(buf.toString('latin1', 0, writeUint(buf, 0, n))).toBe(String(n));
      expect(decimalDigits(n)).toBe(String(n).length);
      expect(buf.toString('latin1', 0, writeDigits(buf, 0, n, decimalDigits(n)))).toBe(String(n));
    }
  });
});
