import { useState } from 'react';
import { WEEKDAYS, describeWindow, windowState, type Cluster, type MaintenanceWindow, type Weekday } from '@strata/api';
import { useMaintenanceWindowMutation } from '../../../data/clusters/cluster-maintenance-window-mutation';
import { isApiError } from '../../../data/fetcher';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Field } from '../../../components/ui/Field';

const DURATIONS = [30, 60, 120, 240, 480, 1440];
const durationLabel = (m: number) => (m < 60 ? `${m} minutes` : m === 60 ? '1 hour' : `${m / 60} hours`);
const dayLabel = (d: Weekday) => d[0]!.toUpperCase() + d.slice(1);

/** The weekly window (UTC) in which restarts asked for it run; saved at once, without touching any engine. */
export function MaintenanceWindowPanel({ cluster }: { cluster: Cluster }) {
  const current = cluster.spec.maintenanceWindow;
  const [form, setForm] = useState<MaintenanceWindow>(current ?? { dayOfWeek: 'sunday', startTime: '02:00', durationMinutes: 120 });
  const save = useMaintenanceWindowMutation(cluster.id);
  const fieldError = (f: keyof MaintenanceWindow) =>
    isApiError(save.error) ? save.error.fieldErrors.find((e) => e.field === `maintenanceWindow.${f}`)?.message : undefined;
  const state = current ? windowState(current, Date.now()) : null;
  const changed = JSON.stringify(form) !== JSON.stringify(current);
  const submit = (w: MaintenanceWindow | null) => save.mutate(w, {
    onSuccess: () => toast(w ? `Maintenance window set: ${describeWindow(w)}.` : 'Maintenance window removed: restarts run when asked.'),
  });
  return (
    <section className="card settings-card" aria-labelledby="mw-title" data-testid="maintenance-window-panel">
      <h2 id="mw-title" className="card-title">Maintenance window</h2>
      <p className="muted small" data-testid="maintenance-window-now">
        {current && state
          ? <>{describeWindow(current)}. {state.open ? `Open now, until ${formatDateTime(state.closesAt)}.` : `Next opens ${formatDateTime(state.opensAt)}.`} A rolling restart waits for it unless you ask for it now.</>
          : 'None: a rolling restart runs as soon as you ask for it. With a window, it waits for the window unless you ask for it now.'}
      </p>
      <div className="grid-2">
        <Field label="Day (UTC)" error={fieldError('dayOfWeek')}>
          <select className="input" name="mwDay" value={form.dayOfWeek} onChange={(e) => setForm({ ...form, dayOfWeek: e.target.value as Weekday })}>
            {WEEKDAYS.map((d) => <option key={d} value={d}>{dayLabel(d)}</option>)}
          </select>
        </Field>
        <Field label="Starts at (UTC)" error={fieldError('startTime')}>
          <input className="input" type="time" name="mwStart" value={form.startTime} onChange={(e) => setForm({ ...form, startTime: e.target.value })} required />
        </Field>
        <Field label="Duration" error={fieldError('durationMinutes')}>
          <select className="input" name="mwDuration" value={form.durationMinutes} onChange={(e) => setForm({ ...form, durationMinutes: Number(e.target.value) })}>
            {DURATIONS.map((m) => <option key={m} value={m}>{durationLabel(m)}</option>)}
          </select>
        </Field>
      </div>
      {save.isError && !['dayOfWeek', 'startTime', 'durationMinutes'].some((f) => fieldError(f as keyof MaintenanceWindow)) && (
        <p className="field-error" role="alert">{isApiError(save.error) ? save.error.summary : String(save.error)}</p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" disabled={!changed || save.isPending} onClick={() => submit(form)}>
          {save.isPending ? 'Saving…' : current ? 'Save window' : 'Set window'}
        </button>
        {current && (
          <button type="button" className="btn btn-secondary" disabled={save.isPending} onClick={() => submit(null)}>Remove window</button>
        )}
      </div>
    </section>
  );
}
