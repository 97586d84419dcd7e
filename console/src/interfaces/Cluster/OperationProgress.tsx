import type { Operation, OperationKind } from '@strata/api';
import { formatDateTime, formatDuration } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { useOperationControlMutation } from '../../data/clusters/operation-control-mutation';
import { OperationStateBadge, STEP_ICONS } from '../../components/ui/Badge';
import { Icon } from '../../components/ui/Icon';
import { ProgressBar } from '../../components/ui/ProgressBar';

export const OPERATION_TITLES: Record<OperationKind, string> = {
  'create-cluster': 'Create cluster',
  'delete-cluster': 'Delete cluster',
  'update-cluster': 'Change topology',
  switchover: 'Switchover',
  'restart-cluster': 'Rolling restart',
  'rotate-ca': 'CA rotation',
  'tls-switch': 'TLS switch',
};

/** The running (or just-failed) operation: progress bar and its steps. */
export function OperationProgress({ operation }: { operation: Operation }) {
  const now = useNow(1000);
  const done = operation.steps.filter((s) => s.state === 'succeeded').length;
  const tone = operation.state === 'failed' ? 'danger' : operation.state === 'succeeded' ? 'success' : 'info';
  return (
    <section className={`card op-card op-${operation.state}`} aria-labelledby="op-title" data-testid="operation-progress">
      <div className="op-head">
        <div>
          <h2 id="op-title" className="card-title">
            {OPERATION_TITLES[operation.kind]}
          </h2>
          <p className="muted small">
            Step {Math.min(done + 1, Math.max(1, operation.steps.length))} of {operation.steps.length || '…'} · running for{' '}
            {formatDuration(operation.createdAt, operation.finishedAt, now)}
          </p>
        </div>
        <div className="op-head-right">
          <span className="op-pct tabular">{Math.round(operation.progress * 100)}%</span>
          <OperationStateBadge state={operation.state} />
        </div>
      </div>
      {operation.startsAt && operation.state === 'pending' && <WaitingForWindow operation={operation} startsAt={operation.startsAt} />}
      <ProgressBar value={operation.progress} label={`${OPERATION_TITLES[operation.kind]} progress`} tone={tone} />
      {operation.error && (
        <p className="op-error" role="alert">
          <strong>{operation.error.code}:</strong> {operation.error.message}
        </p>
      )}
      <StepList operation={operation} now={now} />
    </section>
  );
}

/** A restart waiting for the maintenance window: when it starts, and a way to call it off. */
function WaitingForWindow({ operation, startsAt }: { operation: Operation; startsAt: string }) {
  const control = useOperationControlMutation(operation.clusterId);
  return (
    <div className="form-actions" data-testid="operation-starts-at">
      <p className="muted small">Waiting for the maintenance window: starts {formatDateTime(startsAt)}.</p>
      <button type="button" className="btn btn-secondary" disabled={control.isPending} onClick={() => control.mutate({ id: operation.id, action: 'cancel' })}>
        {control.isPending ? 'Cancelling…' : 'Cancel restart'}
      </button>
    </div>
  );
}

export function StepList({ operation, now }: { operation: Operation; now: number }) {
  if (operation.steps.length === 0) return null;
  return (
    <ol className="steps" aria-label="Steps">
      {operation.steps.map((s) => {
        const icon = STEP_ICONS[s.state];
        return (
          <li key={s.name} className={`step ${icon.cls}`}>
            <span className="step-icon" aria-hidden="true">
              {s.state === 'succeeded' ? <Icon name="check" size={12} /> : s.state === 'failed' ? <Icon name="x" size={12} /> : null}
            </span>
            <span className="step-title">
              {s.title}
              <span className="visually-hidden"> ({icon.label})</span>
            </span>
            <span className="step-time muted small tabular">
              {s.startedAt ? formatDuration(s.startedAt, s.finishedAt, now) : ''}
            </span>
            {s.detail && <span className="step-detail muted small">{s.detail}</span>}
          </li>
        );
      })}
    </ol>
  );
}
