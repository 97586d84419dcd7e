import { useState } from 'react';
import type { Operation } from '@strata/api';
import { useOperationControlMutation, type OperationControl } from '../../../data/clusters/operation-control-mutation';
import { isApiError } from '../../../data/fetcher';
import { isOperationActive } from '../../../data/polling';
import { formatMemoryMb } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';

const DONE: Record<OperationControl, string> = {
  pause: 'Change pausing: the slots in flight finish moving, then it waits.',
  resume: 'Change resumed.',
  cancel: 'Cancelling the change: slots move back and added instances are removed.',
};

/** The running change: overall progress, per-slot progress, rate and ETA, with pause / resume / cancel. */
export function MigrationPanel({ clusterId, operation }: { clusterId: string; operation: Operation }) {
  const control = useOperationControlMutation(clusterId);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const m = operation.migration;
  const step = operation.steps.find((s) => s.state === 'running') ?? operation.steps.find((s) => s.state === 'pending');
  const act = (action: OperationControl) =>
    control.mutate(
      { id: operation.id, action },
      {
        onSuccess: () => {
          setConfirmCancel(false);
          toast(DONE[action], action === 'cancel' ? 'info' : 'success');
        },
        onError: (e) => {
          if (action !== 'cancel') toast(`Could not ${action} the change: ${isApiError(e) ? e.summary : String(e)}`, 'danger');
        },
      },
    );
  return (
    <section className="card settings-card" aria-labelledby="migration-title" data-testid="migration-progress">
      <div className="op-head">
        <h2 id="migration-title" className="card-title">
          {operation.state === 'succeeded' ? 'Change complete' : operation.state === 'cancelled' ? 'Change cancelled; the cluster is back as it was'
            : operation.state === 'failed' ? `Change failed: ${operation.error?.message ?? ''}`
            : operation.cancelRequested ? 'Cancelling: moving back' : operation.paused ? 'Change paused' : m ? 'Changing the topology' : 'Applying the change'}
        </h2>
        <span className="mono" data-testid="migration-percent">{Math.round(operation.progress * 100)}%</span>
      </div>
      <ProgressBar value={operation.progress} label="Change progress" tone={operation.state === 'failed' ? 'danger' : 'info'} />
      {step && <p className="small">{step.title}{step.detail ? ` — ${step.detail}` : ''}</p>}
      {m && (
        <>
          <ProgressBar value={m.slotsTotal ? m.slotsDone / m.slotsTotal : 0} label="Slots moved" />
          <dl className="stats" data-testid="migration-stats">
            <div><dt>Slots</dt><dd>{m.slotsDone} / {m.slotsTotal}</dd></div>
            <div><dt>Keys moved</dt><dd>{m.keysMoved.toLocaleString()}</dd></div>
            <div><dt>Data moved</dt><dd>{formatMemoryMb(Math.round(m.bytesMoved / 1048576))}</dd></div>
            <div><dt>Rate</dt><dd>{m.keysPerSec.toLocaleString()} keys/s</dd></div>
            <div><dt>ETA</dt><dd>{m.etaSeconds === null ? '—' : `${m.etaSeconds} s`}</dd></div>
          </dl>
        </>
      )}
      {isOperationActive(operation.state) && <div className="form-actions">
        {operation.paused
          ? <button type="button" className="btn btn-secondary" onClick={() => act('resume')}>Resume</button>
          : <button type="button" className="btn btn-secondary" disabled={operation.cancelRequested} onClick={() => act('pause')}>Pause</button>}
        <button type="button" className="btn btn-danger-outline" disabled={operation.cancelRequested} onClick={() => setConfirmCancel(true)}>Cancel change</button>
      </div>}
      <ConfirmDialog
        open={confirmCancel}
        testId="cancel-change-confirm"
        title="Cancel the change?"
        confirmLabel="Cancel the change"
        pendingLabel="Cancelling…"
        pending={control.isPending}
        error={control.error ? (isApiError(control.error) ? control.error.summary : String(control.error)) : null}
        onClose={() => {
          setConfirmCancel(false);
          control.reset();
        }}
        onConfirm={() => act('cancel')}
        impact={
          <ul>
            <li>Slots already moved move back to where they were, while clients keep working.</li>
            <li>Instances the change added are removed, and the previous spec is restored.</li>
            <li>No acknowledged write is lost.</li>
          </ul>
        }
      />
    </section>
  );
}
