import { describe, expect, it } from 'vitest';
import { restoreLayoutMismatch } from './restore-layout';

describe('restoreLayoutMismatch', () => {
  it('accepts a backup whose shards own the even split, also as touching pieces', () => {
    expect(restoreLayoutMismatch([{ slots: [{ start: 0, end: 8191 }] }, { slots: [{ start: 8192, end: 16383 }] }])).toBeNull();
    expect(restoreLayoutMismatch([{ slots: [{ start: 4000, end: 8191 }, { start: 0, end: 3999 }] }, { slots: [{ start: 8192, end: 16383 }] }])).toBeNull();
  });

  it('refuses a backup taken after a reshard (scattered or uneven slots)', () => {
    const r = restoreLayoutMismatch([{ slots: [{ start: 0, end: 4000 }, { start: 9000, end: 9100 }] }, { slots: [{ start: 4001, end: 8999 }, { start: 9101, end: 16383 }] }]);
    expect(r).toEqual({ shard: 0, backup: [{ start: 0, end: 4000 }, { start: 9000, end: 9100 }], fresh: { start: 0, end: 8191 } });
    expect(restoreLayoutMismatch([{ slots: [{ start: 0, end: 8000 }] }, { slots: [{ start: 8001, end: 16383 }] }])?.shard).toBe(0);
  });
});
