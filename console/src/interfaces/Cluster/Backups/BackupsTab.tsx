import { useState, type FormEvent } from 'react';
import type { BackupSchedule } from '@strata/api';
import { useBackupsQuery } from '../../../data/backups/backups-query';
import { useBackupStartMutation } from '../../../data/backups/backup-start-mutation';
import { useBackupScheduleQuery } from '../../../data/backups/backup-schedule-query';
import { useBackupScheduleMutation } from '../../../data/backups/backup-schedule-mutation';
import { isApiError } from '../../../data/fetcher';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Field } from '../../../components/ui/Field';
import { BackupTable } from '../../Backups/BackupTable';
import { ErrorState, InlineAlert, LoadingState } from '../../../components/ui/States';

/** The cluster's Backups tab: back up now, the schedule and retention, every backup with its progress. */
export function BackupsTab({ clusterId }: { clusterId: string }) {
  const list = useBackupsQuery(clusterId);
  const start = useBackupStartMutation(clusterId);
  const [consistent, setConsistent] = useState(false);
  const running = list.data?.items.find((b) => b.status === 'running');

  const backUpNow = () => start.mutate(consistent, {
    onSuccess: () => toast('Backup started'),
    onError: (e) => toast(isApiError(e) ? e.message : 'Could not start the backup', 'danger'),
  });

  return (
    <div className="stack-lg" data-testid="backups-tab">
      <section className="card" style={{ padding: 20 }} aria-labelledby="backup-now-title">
        <h2 id="backup-now-title">Back up now</h2>
        <p className="muted">One snapshot per shard, taken on an in-sync replica where there is one, plus a manifest. See docs/backups.md.</p>
        <label>
          <input type="checkbox" checked={consistent} onChange={(e) => setConsistent(e.target.checked)} />
          {' '}Consistent: one point in time across every shard (writes pause for a few milliseconds)
        </label>
        <div>
          <button type="button" className="btn btn-primary" onClick={backUpNow} disabled={!!running || start.isPending}>
            {running ? 'A backup is running' : 'Back up now'}
          </button>
        </div>
      </section>
      <ScheduleForm clusterId={clusterId} />
      <section className="card" style={{ padding: 20 }} aria-labelledby="backups-title">
        <h2 id="backups-title">Backups</h2>
        {list.isPending ? <LoadingState label="Loading backups…" />
          : list.isError ? <ErrorState error={list.error} title="Could not load the backups" onRetry={() => void list.refetch()} />
          : list.data.items.length === 0 ? <p className="muted">No backups yet.</p>
          : <BackupTable items={list.data.items} />}
      </section>
    </div>
  );
}

type Every = 'interval' | 'daily';
type Keep = 'count' | 'days' | 'forever';

function ScheduleForm({ clusterId }: { clusterId: string }) {
  const schedule = useBackupScheduleQuery(clusterId);
  const save = useBackupScheduleMutation(clusterId);
  const current = schedule.data?.schedule ?? null;
  const [every, setEvery] = useState<Every | null>(null);
  const [hours, setHours] = useState<string | null>(null);
  const [dailyAt, setDailyAt] = useState<string | null>(null);
  const [keep, setKeep] = useState<Keep | null>(null);
  const [keepN, setKeepN] = useState<string | null>(null);
  // Until edited, the form shows the stored schedule.
  const e: Every = every ?? (current?.dailyAt ? 'daily' : 'interval');
  const h = hours ?? String(current?.intervalHours ?? 24);
  const d = dailyAt ?? current?.dailyAt ?? '03:00';
  const k: Keep = keep ?? (current?.keepDays ? 'days' : current?.keepLast ? 'count' : current ? 'forever' : 'count');
  const n = keepN ?? String(current?.keepDays ?? current?.keepLast ?? 7);
  const errors = save.error && isApiError(save.error) ? save.error.fieldErrors : [];
  const errorOf = (field: string) => errors.find((x) => x.field === field)?.message;

  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const body: BackupSchedule = {
      intervalHours: e === 'interval' ? Number(h) : null, dailyAt: e === 'daily' ? d : null,
      keepLast: k === 'count' ? Number(n) : null, keepDays: k === 'days' ? Number(n) : null, consistent: current?.consistent ?? false,
    };
    save.mutate(body, { onSuccess: () => toast('Backup schedule saved') });
  };

  return (
    <section className="card" style={{ padding: 20 }} aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule and retention</h2>
      {schedule.isPending ? <LoadingState label="Loading the schedule…" /> : (
        <form onSubmit={submit} className="stack" data-testid="backup-schedule-form" noValidate>
          <p data-testid="backup-next">
            {schedule.data?.nextAt ? `Next backup ${formatDateTime(schedule.data.nextAt)}` : 'No scheduled backups.'}
          </p>
          <Field label="Back up">
            <select value={e} onChange={(x) => setEvery(x.target.value as Every)}>
              <option value="interval">every N hours</option>
              <option value="daily">daily at a time (UTC)</option>
            </select>
          </Field>
          {e === 'interval'
            ? <Field label="Hours between backups" error={errorOf('intervalHours')}><input type="number" min={1} max={168} value={h} onChange={(x) => setHours(x.target.value)} /></Field>
            : <Field label="Time of day (UTC)" error={errorOf('dailyAt')}><input type="time" value={d} onChange={(x) => setDailyAt(x.target.value)} /></Field>}
          <Field label="Keep">
            <select value={k} onChange={(x) => setKeep(x.target.value as Keep)}>
              <option value="count">the newest N backups</option>
              <option value="days">backups for N days</option>
              <option value="forever">until deleted</option>
            </select>
          </Field>
          {k !== 'forever' && (
            <Field label={k === 'count' ? 'Backups to keep' : 'Days to keep'} error={errorOf(k === 'count' ? 'keepLast' : 'keepDays')}>
              <input type="number" min={1} value={n} onChange={(x) => setKeepN(x.target.value)} />
            </Field>
          )}
          {save.isError && !errors.length && <InlineAlert tone="danger" title="Could not save the schedule">{save.error.message}</InlineAlert>}
          <div style={{ display: 'flex', gap: 8 }}>
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>Save schedule</button>
            {current && <button type="button" className="btn btn-secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>Stop scheduled backups</button>}
          </div>
        </form>
      )}
    </section>
  );
}
