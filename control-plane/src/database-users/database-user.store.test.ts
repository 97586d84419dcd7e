import { describe, expect, it } from 'vitest';
import { desiredAcls, nextExpiry, type DatabaseUserRow } from './database-user.store';

const row = (over: Partial<DatabaseUserRow> = {}): DatabaseUserRow => ({
  clusterId: 'c', name: 'reader', preset: 'read-only', keyPatterns: [], channelPatterns: [], passwordSha256: 'a'.repeat(64),
  previousPasswordSha256: null, previousExpiresAt: null, createdAt: new Date(0), passwordRotatedAt: null, ...over,
});

describe('desired database users', () => {
  const now = 1_000_000;
  it('a rotated-out password opens the user until its grace period ends, then no more', () => {
    const rotated = row({ previousPasswordSha256: 'b'.repeat(64), previousExpiresAt: new Date(now + 5000) });
    expect(desiredAcls([rotated], now)[0]!.passwordHashes).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    expect(nextExpiry([rotated], now)).toBe(now + 5000);
    expect(desiredAcls([rotated], now + 5000)[0]!.passwordHashes).toEqual(['a'.repeat(64)]);
    expect(nextExpiry([rotated], now + 5000)).toBeNull();
  });
  it('no grace period running: no expiry to wait for', () => {
    expect(nextExpiry([row()], now)).toBeNull();
    expect(desiredAcls([row()], now)).toEqual([{ name: 'reader', preset: 'read-only', keyPatterns: [], channelPatterns: [], passwordHashes: ['a'.repeat(64)] }]);
  });
});
