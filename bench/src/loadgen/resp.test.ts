import { describe, expect, it } from 'vitest';
import { parseReply, encodeCommand, ParseMode, ReplyType, keySpans, type Reply } from './resp';
import { keySlot } from './key-slot';
import { SlotMap, parseClusterSlots, parseRedirect } from './slot-map';

const fresh = (): Reply => ({ type: ReplyType.Simple, integer: 0, value: undefined });

describe('RESP parser', () => {
  it('parses every reply type, and waits for incomplete input', () => {
    const r = fresh();
    const buf = Buffer.from('+OK\r\n-MOVED 1 127.0.0.1:7000\r\n:42\r\n$3\r\na.b\r\n$-1\r\n*2\r\n$1\r\nx\r\n:1\r\n*-1\r\n');
    let p = parseReply(buf, 0, ParseMode.Skip, r);
    expect(r.type).toBe(ReplyType.Simple);
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect([r.type, r.value]).toEqual([ReplyType.Error, 'MOVED 1 127.0.0.1:7000']);
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect([r.type, r.integer]).toEqual([ReplyType.Integer, 42]);
    const bulkAt = p;
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect([r.type, r.integer]).toEqual([ReplyType.Bulk, 3]);
    expect(parseReply(buf, bulkAt, ParseMode.Dots, r)).toBe(p);
    expect(r.integer).toBe(2); // "a.b" is two sentences
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect(r.integer).toBe(-1);
    const arrAt = p;
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect([r.type, r.integer]).toEqual([ReplyType.Array, 2]);
    parseReply(buf, arrAt, ParseMode.Full, r);
    expect(r.value).toEqual(['x', 1]);
    p = parseReply(buf, p, ParseMode.Skip, r);
    expect(r.integer).toBe(-1);
    expect(p).toBe(buf.length);
    // every strict prefix of a reply is incomplete
    const whole = Buffer.from('*2\r\n$5\r\nhello\r\n$5\r\nworld\r\n');
    for (let cut = 0; cut < whole.length; cut++) expect(parseReply(whole.subarray(0, cut), 0, ParseMode.Skip, r)).toBe(-1);
    expect(parseReply(whole, 0, ParseMode.Skip, r)).toBe(whole.length);
  });

  it('key lists (ParseMode.Spans): each element located in the reply buffer, nothing decoded; incomplete input waits', () => {
    const r = fresh();
    const whole = Buffer.from('*3\r\n$5\r\nuser1\r\n$0\r\n\r\n$12\r\nuser99999999\r\n*0\r\n');
    const end = whole.length - 4;
    for (let cut = 0; cut < end; cut++) expect(parseReply(whole.subarray(0, cut), 0, ParseMode.Spans, r)).toBe(-1);
    expect(parseReply(whole, 0, ParseMode.Spans, r)).toBe(end);
    expect([r.type, r.integer, r.value]).toEqual([ReplyType.Array, 3, whole]);
    const keys = [0, 1, 2].map((i) => whole.toString('latin1', keySpans[2 * i]!, keySpans[2 * i]! + keySpans[2 * i + 1]!));
    expect(keys).toEqual(['user1', '', 'user99999999']);
    expect(parseReply(whole, end, ParseMode.Spans, r)).toBe(whole.length);
    expect(r.integer).toBe(0);
    expect(() => parseReply(Buffer.from('*1\r\n:1\r\n'), 0, ParseMode.Spans, r)).toThrow(/bulk string/);
  });

  it('encodes commands', () => {
    expect(encodeCommand(['GET', 'k'])).toBe('*2\r\n$3\r\nGET\r\n$1\r\nk\r\n');
  });
});

describe('cluster routing', () => {
  it('key slots match Redis (CLUSTER KEYSLOT) including hash tags', () => {
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('user6284781860667377211')).toBe(keySlot('user6284781860667377211'));
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('foo{}{bar}')).toBe(keySlot('foo{}{bar}'));
    expect(keySlot('123456789')).toBe(0x31c3 & 16383);
  });

  it('builds the slot map from CLUSTER SLOTS and follows MOVED', () => {
    const m = SlotMap.from(
      parseClusterSlots([
        [0, 8191, ['10.0.0.1', 7000, 'a']],
        [8192, 16383, ['10.0.0.2', 7000, 'b'], ['10.0.0.3', 7001, 'c']],
      ]),
    );
    expect(m.primaries()).toEqual(['10.0.0.1:7000', '10.0.0.2:7000']);
    expect(m.endpoints[m.owner[9000]!]).toBe('10.0.0.2:7000');
    const r = parseRedirect('MOVED 9000 10.0.0.9:7002')!;
    expect(r).toEqual({ kind: 'MOVED', slot: 9000, endpoint: '10.0.0.9:7002' });
    m.owner[r.slot] = m.indexOf(r.endpoint);
    expect(m.endpoints[m.owner[9000]!]).toBe('10.0.0.9:7002');
    expect(parseRedirect('ASK 1 :7005')).toEqual({ kind: 'ASK', slot: 1, endpoint: '127.0.0.1:7005' });
    expect(parseRedirect('WRONGTYPE Operation')).toBeUndefined();
  });
});
