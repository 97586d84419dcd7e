import { describe, expect, it } from 'vitest';
import { TopN, parseSlowLogEntry, printable, restAfter } from './key-rank';
import { mergeSlowLogs } from './merge-slowlog';

describe('printable', () => {
  it('keeps printable ASCII, escapes the rest like redis-cli, and cuts long values', () => {
    expect(printable('user:1', 10)).toBe('user:1');
    expect(printable(Buffer.from([0x61, 0x00, 0xff, 0x5c, 0x0a]), 40)).toBe('a\\x00\\xff\\\\\\x0a');
    expect(printable('x'.repeat(300), 200)).toBe(`${'x'.repeat(200)}…`);
    // An escape is never cut in half.
    expect(printable(Buffer.from([0x61, 0x61, 0x01]), 4)).toBe('aa…');
  });
});

describe('TopN', () => {
  it('keeps the n largest, largest first, first seen on a tie', () => {
    const t = new TopN<string>(3);
    for (const [k, s] of [['a', 5], ['b', 1], ['c', 9], ['d', 5], ['e', 7], ['f', 2]] as const) t.offer(k, s);
    expect(t.list()).toEqual([{ item: 'c', score: 9 }, { item: 'e', score: 7 }, { item: 'a', score: 5 }]);
    expect(t.floor).toBe(5);
  });
  it('takes everything while not full', () => {
    const t = new TopN<number>(5);
    t.offer(1, 0);
    expect(t.floor).toBe(-Infinity);
    expect(t.list()).toHaveLength(1);
  });
});

describe('parseSlowLogEntry', () => {
  const limits = { args: 2, argChars: 8 };
  it('reads an entry, cutting arguments and counting what Redis and we left out', () => {
    const raw = [14, 1764153000, 250123, [Buffer.from('debug'), Buffer.from('sleep'), Buffer.from('0.25')], '127.0.0.1:51234', 'worker-1'];
    expect(parseSlowLogEntry(raw, limits)).toEqual({
      id: 14, at: 1764153000, durationMicros: 250123, command: 'DEBUG', args: ['sleep', '0.25'], argsOmitted: 0, client: '127.0.0.1:51234', clientName: 'worker-1',
    });
    const long = [15, 1764153001, 10, ['SET', 'k', 'v'.repeat(20), 'EX', '10', '... (30 more arguments)'], '127.0.0.1:1', ''];
    expect(parseSlowLogEntry(long, limits)).toMatchObject({ command: 'SET', args: ['k', `${'v'.repeat(8)}…`], argsOmitted: 32, clientName: '' });
  });
});

describe('restAfter', () => {
  it('rests at least the pause and at least four times as long as the batch took', () => {
    expect(restAfter(0.4, 20)).toBe(20);
    expect(restAfter(12.2, 20)).toBe(49);
  });
});

describe('mergeSlowLogs', () => {
  it('newest first, the slowest first within a second, bounded', () => {
    const a = [
      { at: '2026-11-26T10:00:02.000Z', durationMicros: 100, instanceId: 'a', id: 2 },
      { at: '2026-11-26T10:00:00.000Z', durationMicros: 900, instanceId: 'a', id: 1 },
    ];
    const b = [
      { at: '2026-11-26T10:00:02.000Z', durationMicros: 5000, instanceId: 'b', id: 7 },
      { at: '2026-11-26T10:00:01.000Z', durationMicros: 1, instanceId: 'b', id: 6 },
    ];
    expect(mergeSlowLogs([a, b]).map((e) => `${e.instanceId}${e.id}`)).toEqual(['b7', 'a2', 'b6', 'a1']);
    expect(mergeSlowLogs([a, b], 2)).toHaveLength(2);
    expect(mergeSlowLogs([])).toEqual([]);
  });
});
