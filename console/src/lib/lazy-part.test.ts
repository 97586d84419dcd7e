import { describe, expect, it } from 'vitest';
import { partLoader, reloadForPart } from './lazy-part';

const settled = (p: Promise<unknown>, ms = 50) => Promise.race([p.then(() => 'resolved', () => 'rejected'), new Promise((r) => setTimeout(() => r('pending'), ms))]);

describe('partLoader', () => {
  it('gives React the picked component of a loaded module', async () => {
    const Part = () => null;
    await expect(partLoader(async () => ({ Part }), (m) => m.Part)()).resolves.toEqual({ default: Part });
  });

  it('waits (never fails) when the import resolved with nothing: the page is reloading after a chunk failed to load', async () => {
    expect(await settled(partLoader(async () => undefined, (m: { Part: unknown }) => m.Part)())).toBe('pending');
  });

  it('still fails when the import itself fails (no reload was started)', async () => {
    expect(await settled(partLoader(async () => { throw new Error('chunk gone'); }, (m: { Part: unknown }) => m.Part)())).toBe('rejected');
  });
});

describe('reloadForPart', () => {
  it('reloads up to 3 times a minute, then lets the error show; older reloads no longer count', () => {
    let kept: number[] = [];
    const at = (t: number) => { const r = reloadForPart(t, kept); kept = r.keep; return r.reload; };
    expect([at(0), at(1_000), at(2_000), at(3_000)]).toEqual([true, true, true, false]);
    expect(kept).toEqual([0, 1_000, 2_000]);
    expect(at(60_500)).toBe(true);
    expect(kept).toEqual([1_000, 2_000, 60_500]);
  });
});
