import { describe, expect, it } from 'vitest';
import { backupsToRemove, nextBackupAt } from './backup-schedule.planner';

const at = (iso: string) => new Date(iso);

describe('nextBackupAt', () => {
  it.each([
    [{ intervalHours: 6, dailyAt: null }, '2026-11-26T10:00:00Z', '2026-11-26T16:00:00Z'],
    [{ intervalHours: 24, dailyAt: null }, '2026-12-31T23:30:00Z', '2027-01-01T23:30:00Z'],
    [{ intervalHours: null, dailyAt: '03:15' }, '2026-11-26T01:00:00Z', '2026-11-26T03:15:00Z'],
    [{ intervalHours: null, dailyAt: '03:15' }, '2026-11-26T03:15:00Z', '2026-11-27T03:15:00Z'],
    [{ intervalHours: null, dailyAt: '00:00' }, '2026-12-31T23:59:00Z', '2027-01-01T00:00:00Z'],
  ])('%o after %s is %s', (s, after, want) => {
    expect(nextBackupAt(s, at(after)).toISOString()).toBe(at(want).toISOString());
  });
});

describe('backupsToRemove', () => {
  const b = (id: string, created: string, expires: string | null = null) => ({ id, createdAt: at(created), expiresAt: expires ? at(expires) : null });
  const now = at('2026-11-26T12:00:00Z');

  it('keeps the newest keepLast, whatever order they come in', () => {
    expect(backupsToRemove([b('old', '2026-11-20T00:00:00Z'), b('new', '2026-11-25T00:00:00Z'), b('mid', '2026-11-22T00:00:00Z')], 2, now)).toEqual(['old']);
  });
  it('removes what expired, and nothing before its time', () => {
    expect(backupsToRemove([b('gone', '2026-11-01T00:00:00Z', '2026-11-26T12:00:00Z'), b('kept', '2026-11-02T00:00:00Z', '2026-11-26T12:00:01Z')], null, now)).toEqual(['gone']);
  });
  it('without retention keeps everything', () => {
    expect(backupsToRemove([b('a', '2020-01-01T00:00:00Z'), b('b', '2021-01-01T00:00:00Z')], null, now)).toEqual([]);
  });
});
