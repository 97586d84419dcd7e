import { describe, expect, it } from 'vitest';
import { backupProgressDetail, BackupSchedule, parseBackupProgressDetail } from './backups';

describe('backup progress detail', () => {
  it.each([[5, 10], [0, null], [123456789, null], [7, 7]] as const)('%d of %s reads back', (bytes, total) => {
    expect(parseBackupProgressDetail(backupProgressDetail(bytes, total))).toEqual({ bytes, total });
  });
  it('anything else is no progress', () => {
    expect(parseBackupProgressDetail('moving slots')).toBeNull();
    expect(parseBackupProgressDetail(null)).toBeNull();
  });
});

describe('BackupSchedule', () => {
  it.each([
    [{ intervalHours: 6 }, null],
    [{ dailyAt: '23:59', keepDays: 7 }, null],
    [{}, 'intervalHours'],
    [{ intervalHours: 1, dailyAt: '01:00' }, 'intervalHours'],
    [{ intervalHours: 0 }, 'intervalHours'],
    [{ dailyAt: '24:00' }, 'dailyAt'],
    [{ intervalHours: 1, keepLast: 0 }, 'keepLast'],
    [{ intervalHours: 1, keepDays: -1 }, 'keepDays'],
    [{ intervalHours: 1, keepLast: 3, keepDays: 3 }, 'keepLast'],
  ])('%o: %s', (input, field) => {
    const r = BackupSchedule.safeParse(input);
    if (field === null) expect(r.success).toBe(true);
    else expect(r.success ? [] : r.error.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});
