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
