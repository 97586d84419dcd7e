import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './restart-backoff';

describe('RestartBackoff', () => {
  it('doubles from 1 s to 30 s while the agent keeps dying quickly', () => {
    const b = new RestartBackoff();
    expect(Array.from({ length: 8 }, () => b.next(500))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts again at 1 s after a stable run, however many deaths came before', () => {
    const b = new RestartBackoff({ stableAfterMs: 10_000 });
    for (let i = 0; i < 7; i++) b.next(100);
    expect(b.next(9_999)).toBe(30_000);
    expect(b.next(10_000)).toBe(1000);
    expect(b.next(200)).toBe(2000);
  });
});
