/**
 * Starts scheduled backups when they are due and applies retention: backups
 * past their `expiresAt` (keepDays; a deleted cluster's too) and those
 * beyond a schedule's `keepLast` are removed, objects first. The clock and
 * the pass interval are injectable.
 */
import type { Logger } from 'pino';
import { AppError } from '../errors';
import { backupsToRemove, nextBackupAt } from './backup-schedule.planner';
import type { BackupScheduleStore } from './backup-schedule.store';
import type { BackupRow, BackupStore } from './backup.store';
import type { BackupService } from './backup.service';

export interface BackupSchedulerDeps {
  schedules: BackupScheduleStore;
  store: BackupStore;
  service: BackupService;
  log: Logger;
  now?: () => Date;
  intervalMs?: number;
}

export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(private readonly d: BackupSchedulerDeps) {}

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.d.intervalMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.startDue().catch((err) => this.d.log.error({ err }, 'scheduled backups pass failed'));
      await this.applyRetention().catch((err) => this.d.log.error({ err }, 'backup retention pass failed'));
    } finally {
      this.busy = false;
    }
  }

  private async startDue(): Promise<void> {
    const now = this.now();
    for (const s of await this.d.schedules.due(now)) {
      // The next start is set first: a cluster that cannot be backed up now is tried at its next time, not in a loop.
      await this.d.schedules.moveNext(s.clusterId, nextBackupAt(s.schedule, now));
      try {
        const b = await this.d.service.start(s.organizationId, s.clusterId, { consistent: s.schedule.consistent }, 'schedule');
        this.d.log.info({ clusterId: s.clusterId, backupId: b.id }, 'scheduled backup started');
      } catch (err) {
        const why = err instanceof AppError ? `${err.code}: ${err.detail}` : (err as Error).message;
        this.d.log.warn({ clusterId: s.clusterId, why }, 'scheduled backup skipped');
      }
    }
  }

  private async applyRetention(): Promise<void> {
    const now = this.now();
    const doomed = new Map<string, BackupRow>();
    for (const b of await this.d.store.expired(now)) doomed.set(b.id, b);
    for (const s of await this.d.schedules.withKeepLast()) {
      const completed = await this.d.store.completedOf(s.clusterId);
      for (const id of backupsToRemove(completed, s.schedule.keepLast, now)) doomed.set(id, completed.find((b) => b.id === id)!);
    }
    for (const b of doomed.values()) {
      try {
        await this.d.service.remove(b);
        this.d.log.info({ backupId: b.id, clusterId: b.clusterId }, 'backup removed by retention');
      } catch (err) {
        this.d.log.warn({ backupId: b.id, err: (err as Error).message }, 'retention could not remove a backup yet');
      }
    }
  }
}
