/** Clusters' backup schedules (table backup_schedules). */
import type pg from 'pg';
import type { BackupSchedule } from '@strata/api';

export interface ScheduleRow {
  clusterId: string;
  organizationId: string;
  schedule: BackupSchedule;
  nextAt: Date;
}

const toRow = (r: any): ScheduleRow => ({ clusterId: r.cluster_id, organizationId: r.organization_id, schedule: r.schedule, nextAt: r.next_at });

export class BackupScheduleStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(clusterId: string): Promise<ScheduleRow | null> {
    const r = await this.pool.query('SELECT * FROM backup_schedules WHERE cluster_id = $1', [clusterId]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async set(clusterId: string, organizationId: string, schedule: BackupSchedule, nextAt: Date): Promise<void> {
    await this.pool.query(
      `INSERT INTO backup_schedules (cluster_id, organization_id, schedule, next_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (cluster_id) DO UPDATE SET schedule = excluded.schedule, next_at = excluded.next_at, updated_at = now()`,
      [clusterId, organizationId, JSON.stringify(schedule), nextAt],
    );
  }

  async remove(clusterId: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM backup_schedules WHERE cluster_id = $1', [clusterId])).rowCount ?? 0) > 0;
  }

  async due(now: Date): Promise<ScheduleRow[]> {
    const r = await this.pool.query('SELECT * FROM backup_schedules WHERE next_at <= $1 ORDER BY next_at LIMIT 100', [now]);
    return r.rows.map(toRow);
  }

  async withKeepLast(): Promise<ScheduleRow[]> {
    const r = await this.pool.query(`SELECT * FROM backup_schedules WHERE schedule->>'keepLast' IS NOT NULL AND schedule->>'keepLast' <> 'null'`);
    return r.rows.map(toRow);
  }

  async moveNext(clusterId: string, nextAt: Date): Promise<void> {
    await this.pool.query('UPDATE backup_schedules SET next_at = $2 WHERE cluster_id = $1', [clusterId, nextAt]);
  }
}
