import { describe, expect, it } from 'vitest';
import { parseCopyReply } from './slot-move.scripts';

const entry = (fp: string, payload: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeInt32BE(fp.length, 0);
  head.writeInt32BE(payload.length, 4);
  return Buffer.concat([head, Buffer.from(fp, 'latin1'), payload]);
};
const gone = () => { const b = Buffer.alloc(4); b.writeInt32BE(-1, 0); return b; };

describe('parseCopyReply', () => {
  it('reads fingerprints, expiries and binary payloads, and keys gone since they were listed', () => {
    const payload = Buffer.from([0, 0x0d, 0x0a, 0xff, 0x2b]);
    const reply = Buffer.concat([entry(`${'a'.repeat(40)}:-1`, payload), gone(), entry(`${'b'.repeat(40)}:1795680971000`, Buffer.from('x'))]);
    expect(parseCopyReply(reply, 3)).toEqual([
      { fp: `${'a'.repeat(40)}:-1`, expireAt: -1, payload },
      null,
      { fp: `${'b'.repeat(40)}:1795680971000`, expireAt: 1795680971000, payload: Buffer.from('x') },
    ]);
  });

  it('refuses a reply that does not match the keys asked for', () => {
    expect(() => parseCopyReply(Buffer.concat([gone(), gone()]), 1)).toThrow(/left over/);
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
