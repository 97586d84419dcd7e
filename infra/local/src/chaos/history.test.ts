import { describe, expect, it } from 'vitest';
import { checkHistory, type AppendOp } from './history';

const op = (o: Partial<AppendOp> & { value: number }): AppendOp => ({ client: 1, key: 'l:0', kind: 'plain', status: 'ok', start: o.value * 10, end: o.value * 10 + 5, ...o });

describe('checkHistory', () => {
  it('finds acknowledged appends missing from the lists, split by WAIT, with the window they span', () => {
    const ops = [op({ value: 1 }), op({ value: 2 }), op({ value: 3, kind: 'wait' }), op({ value: 4 }), op({ value: 5, status: 'failed', error: 'NOREPLICAS' })];
    const v = checkHistory({ ops, finalLists: new Map([['l:0', [1, 3]]]), samples: [], faultAt: 0, endAt: 100 });
    expect(v.acknowledged).toEqual({ plain: 3, wait: 1 });
    expect(v.lost).toEqual({ plain: 2, wait: 0 });
    expect(v.lossWindowMs).toBe(45 - 20);
    expect(v.errors).toEqual({ NOREPLICAS: 1 });
    expect(v.failedShare).toBeCloseTo(0.2);
  });

  it('flags values nobody appended, duplicates, and moments with two claimants of a slot', () => {
    const v = checkHistory({
      ops: [op({ value: 1 }), op({ value: 2, status: 'unknown', error: 'timeout' })],
      finalLists: new Map([['l:0', [1, 1, 99]]]),
      samples: [{ at: 1, doublyClaimedSlots: 0 }, { at: 2, doublyClaimedSlots: 12 }],
      faultAt: 0, endAt: 50,
    });
    expect(v.lost).toEqual({ plain: 0, wait: 0 });
    expect(v.unexpected).toBe(1);
    expect(v.duplicates).toBe(1);
    expect(v.twoPrimaryMoments).toBe(1);
    expect(v.unknownShare).toBeCloseTo(0.5);
  });

  it('measures the first acknowledged write after the fault and the longest gap without one', () => {
    const ops = [op({ value: 1, start: 0, end: 1 }), op({ value: 2, start: 100, end: 101 }), op({ value: 3, start: 900, end: 950 })];
    const v = checkHistory({ ops, finalLists: new Map([['l:0', [1, 2, 3]]]), samples: [], faultAt: 50, endAt: 1000 });
    expect(v.firstOkAfterFaultMs).toBe(51);
    expect(v.longestGapMs).toBe(950 - 101);
  });
});

describe('split sampler parsing', () => {
  it('reads the slots a node claims from its own line, and counts slots two nodes claim', async () => {
    const { claimedSlots, doublyClaimed } = await import('./split-sampler');
    const a = 'id1 10.0.1.11:7000@17000 myself,master - 0 0 1 connected 0-9 [10->-id2]\nid2 10.0.1.12:7000@17000 master - 0 0 2 connected 10-19\n';
    const b = 'id2 10.0.1.12:7000@17000 myself,master - 0 0 2 connected 5-19\n';
    const r = 'id3 10.0.1.13:7000@17000 myself,slave id1 0 0 1 connected\n';
    expect(claimedSlots(a)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(claimedSlots(r)).toEqual([]);
    expect(doublyClaimed([claimedSlots(a), claimedSlots(b), claimedSlots(r)])).toBe(5);
  });
});
