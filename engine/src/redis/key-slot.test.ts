import { describe, expect, it } from 'vitest';
import { crc16, keySlot } from './key-slot';

describe('keySlot', () => {
  it('is CRC16/XMODEM modulo 16384, as Redis Cluster computes it', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
    // Values from CLUSTER KEYSLOT on redis-server 7.0.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('bar')).toBe(5061);
    expect(keySlot('')).toBe(0);
  });

  it('hashes only the hash tag when there is a non-empty one', () => {
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('{user1000}.followers')).toBe(keySlot('{user1000}.following'));
    // An empty tag: the whole key. A tag is cut at the first `}` after the first `{`.
    expect(keySlot('foo{}{bar}')).toBe(8363);
    expect(keySlot('foo{{bar}}zap')).toBe(keySlot('{bar'));
    expect(keySlot('{bar')).toBe(4015);
    expect(keySlot(Buffer.from([0xff, 0x00, 0x7b, 0x61, 0x7d]))).toBe(keySlot('a'));
  });
});
