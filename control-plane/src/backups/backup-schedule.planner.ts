/**
 * When a cluster's next scheduled backup starts, and which of its backups
 * retention removes. Pure: the clock is an argument.
 */
import type { BackupSchedule } from '@strata/api';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The first start strictly after `after`: every `intervalHours` from `after`, or the next `dailyAt` (UTC). */
export function nextBackupAt(s: Pick<BackupSchedule, 'intervalHours' | 'dailyAt'>, after: Date): Date {
  if (s.intervalHours !== null) return new Date(after.getTime() + s.intervalHours * HOUR);
  const [h, m] = s.dailyAt!.split(':').map(Number) as [number, number];
  const today = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), h, m);
  return new Date(today > after.getTime() ? today : today + DAY);
}

export interface RetainedBackup {
  id: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/**
 * The completed backups of one cluster that retention removes at `now`:
 * past their `expiresAt` (keepDays), or beyond the newest `keepLast`.
 */
export function backupsToRemove(completed: readonly RetainedBackup[], keepLast: number | null, now: Date): string[] {
  const newestFirst = [...completed].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return newestFirst
    .filter((b, i) => (b.expiresAt !== null && b.expiresAt.getTime() <= now.getTime()) || (keepLast !== null && i >= keepLast))
    .map((b) => b.id);
}
