import { describe, expect, it } from 'vitest';
import { trustApplied } from './trust-applied';

const inst = (id: string) => ({ id, nodeId: `n-${id}` });

describe('trustApplied', () => {
  it('holds once every running instance loaded the digest; a stopped one serves nobody', () => {
    const seen = { a: { state: 'running', trustDigest: 'd2' }, b: { state: 'stopped', trustDigest: 'd1' } } as Record<string, { state: string; trustDigest: string }>;
    expect(trustApplied([inst('a'), inst('b')], (id) => seen[id] ?? null, 'd2')).toBe(true);
    expect(trustApplied([inst('a'), inst('b')], (id) => seen[id] ?? null, 'd3')).toBe(false);
  });

  it('does not hold while an instance is not observed: its silent node may still serve with the old trust', () => {
    const seen = { a: { state: 'running', trustDigest: 'd2' } } as Record<string, { state: string; trustDigest: string }>;
    expect(trustApplied([inst('a'), inst('b')], (id) => seen[id] ?? null, 'd2')).toBe(false);
  });
});
