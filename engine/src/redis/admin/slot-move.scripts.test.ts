import { describe, expect, it } from 'vitest';
import { combineDigests, copyArgs, EMPTY_DIGEST, parseCopyReply } from './slot-move.scripts';

const head = (keys: number, digest: string) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(keys, 0);
  return Buffer.concat([b, Buffer.from(digest, 'latin1')]);
};

describe('parseCopyReply', () => {
  it('reads each group\'s key count and digest, and keeps the restore commands as they came', () => {
    const commands = Buffer.from('*5\r\n$14\r\nRESTORE-ASKING\r\n$1\r\nk\r\n$1\r\n0\r\n$3\r\n\x00\r\n\r\n$7\r\nREPLACE\r\n', 'latin1');
    const micros = Buffer.alloc(4);
    micros.writeInt32BE(1250, 0);
    const reply = Buffer.concat([micros, head(1, 'a'.repeat(32)), head(0, EMPTY_DIGEST), commands]);
    expect(parseCopyReply(reply, 2)).toEqual({ serverMs: 1.25, groups: [{ keys: 1, digest: 'a'.repeat(32) }, { keys: 0, digest: EMPTY_DIGEST }], restores: commands, keys: 1 });
  });

  it('refuses a reply shorter than its headers, or with keys and no command', () => {
    expect(() => parseCopyReply(Buffer.concat([Buffer.alloc(4), head(0, EMPTY_DIGEST)]), 2)).toThrow(/shorter/);
    expect(() => parseCopyReply(Buffer.concat([Buffer.alloc(4), head(3, 'b'.repeat(32))]), 1)).toThrow(/no command/);
  });
});

describe('combineDigests', () => {
  it('XORs two digests word by word (the order of the parts does not matter; a part twice cancels out)', () => {
    const a = '0123456789abcdef'.repeat(2);
    const b = 'ffffffff00000000'.repeat(2);
    expect(combineDigests(a, b)).toBe('fedcba9889abcdef'.repeat(2));
    expect(combineDigests(b, a)).toBe(combineDigests(a, b));
    expect(combineDigests(combineDigests(a, b), b)).toBe(a);
    expect(combineDigests(a, EMPTY_DIGEST)).toBe(a);
  });
});

describe('copyArgs', () => {
  it('sends a whole slot as `slot -1`, listed keys as `slot n keys...`', () => {
    expect(copyArgs([{ slot: 7 }, { slot: 9, keys: [Buffer.from('a'), Buffer.from('b')] }])).toEqual(['7', '-1', '9', '2', Buffer.from('a'), Buffer.from('b')]);
  });
});

describe('encodeRestores', () => {
  it('encodes RESTORE-ASKING commands as RESP, binary payloads and expiries included', async () => {
    const { encodeRestores } = await import('./bulk-restore.connection');
    const payload = Buffer.from([0, 0x0d, 0x0a, 0xff]);
    const out = encodeRestores([{ key: Buffer.from('k:1'), expireAt: -1, payload }, { key: Buffer.from('k:2'), expireAt: 1795680971000, payload: Buffer.from('x') }]);
    expect(out).toEqual(Buffer.concat([
      Buffer.from('*5\r\n$14\r\nRESTORE-ASKING\r\n$3\r\nk:1\r\n$1\r\n0\r\n$4\r\n'), payload, Buffer.from('\r\n$7\r\nREPLACE\r\n'),
      Buffer.from('*6\r\n$14\r\nRESTORE-ASKING\r\n$3\r\nk:2\r\n$13\r\n1795680971000\r\n$1\r\nx\r\n$7\r\nREPLACE\r\n$6\r\nABSTTL\r\n'),
    ]));
  });
});
