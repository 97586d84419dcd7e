import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CA_RETIRE_AFTER_SECONDS, type ClusterPhase } from '@strata/api';
import { useClusterOperationsQuery } from '../../data/clusters/cluster-operations-query';
import { useClusterRotateCaMutation } from '../../data/clusters/cluster-rotate-ca-mutation';
import { clusterKeys } from '../../data/clusters/keys';
import { isApiError } from '../../data/fetcher';
import { isOperationActive } from '../../data/polling';
import { useNow } from '../../lib/hooks';
import { toast } from '../../lib/toast';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { ProgressBar } from '../../components/ui/ProgressBar';
import { StepList } from './OperationProgress';
import { RETIRE_AFTER_CHOICES, rotationStage, shownRotation } from './ca-rotation';
import { CA_FILE } from './snippets';

/**
 * "Rotate CA" on the Connect tab: asks first (both CAs trusted for a while,
 * the new CA to download before the old one retires) with how long the old
 * CA stays, then follows the rotate-ca operation's steps and offers the CA
 * file as it stands (both CAs, then the new one alone).
 */
export function CaRotationPanel({ clusterId, phase }: { clusterId: string; phase: ClusterPhase }) {
  const now = useNow(1000);
  const qc = useQueryClient();
  const ops = useClusterOperationsQuery(clusterId);
  const rotate = useClusterRotateCaMutation(clusterId);
  const [asking, setAsking] = useState(false);
  const [retireAfter, setRetireAfter] = useState<number>(CA_RETIRE_AFTER_SECONDS.default);
  const busy = ops.data?.items.some((o) => isOperationActive(o.state)) ?? false;
  const op = shownRotation(ops.data?.items, now);
  const stage = op ? rotationStage(op) : null;
  const stepsDone = op?.steps.filter((s) => s.state === 'succeeded').length ?? 0;
  // The connection details' CA changes as the rotation goes: ask for them again at each step.
  useEffect(() => {
    if (op) void qc.invalidateQueries({ queryKey: clusterKeys.connection(clusterId) });
  }, [qc, clusterId, op?.id, op?.state, stepsDone]); // eslint-disable-line react-hooks/exhaustive-deps
  const close = () => {
    setAsking(false);
    rotate.reset();
  };
  const canRotate = !busy && (phase === 'ready' || phase === 'degraded');
  return (
    <div className="ca-rotation stack" data-testid="ca-rotation-panel">
      <div className="secret-row">
        <span className="small muted">
          Replace the cluster&apos;s CA without a restart: both CAs are trusted until the old one is retired.
        </span>
        <button type="button" className="btn btn-secondary btn-sm" disabled={!canRotate} onClick={() => setAsking(true)}>
          Rotate CA
        </button>
      </div>
      {op && stage && (
        <section className="ca-rotation-progress stack" aria-label="CA rotation" data-testid="ca-rotation-progress">
          <p className="small">
            <strong>{stage.title}</strong> · <span className="tabular" data-testid="ca-rotation-percent">{Math.round(op.progress * 100)}%</span>
          </p>
          <ProgressBar value={op.progress} label="CA rotation progress" tone={op.state === 'failed' ? 'danger' : op.state === 'succeeded' ? 'success' : 'info'} />
          <StepList operation={op} now={now} />
          <div className="secret-row">
            <span className="small" data-testid="ca-rotation-note">{stage.note}</span>
            {stage.ca && (
              <a className="btn btn-secondary btn-sm" href={`/v1/clusters/${clusterId}/ca.pem`} download={CA_FILE} data-testid="download-rotated-ca">
                {stage.ca === 'both' ? 'Download CA (both CAs)' : 'Download the new CA'}
              </a>
            )}
          </div>
        </section>
      )}
      <ConfirmDialog
        open={asking}
        testId="rotate-ca-confirm"
        title="Rotate the cluster's CA?"
        tone="primary"
        confirmLabel="Rotate CA"
        pendingLabel="Starting…"
        pending={rotate.isPending}
        error={rotate.error ? (isApiError(rotate.error) ? rotate.error.summary : String(rotate.error)) : null}
        onClose={close}
        onConfirm={() => rotate.mutate({ retireAfterSeconds: retireAfter }, {
          onSuccess: () => {
            close();
            toast('CA rotation started: download the CA file (it holds both CAs) and give it to your clients.');
          },
        })}
        impact={
          <ul>
            <li>A new CA is made at once. Every instance trusts it beside the old one, then serves a certificate from it, without a restart; open connections stay.</li>
            <li>Until the old CA is retired, {CA_FILE} holds both CAs, and clients that trust only the old one keep connecting. Download the new CA file and give it to every client before then.</li>
            <li>
              <label>
                Retire the old CA{' '}
                <select className="input" style={{ width: 'auto', display: 'inline-block' }} value={retireAfter} onChange={(e) => setRetireAfter(Number(e.target.value))} aria-label="Retire the old CA after">
                  {RETIRE_AFTER_CHOICES.map((c) => <option key={c.seconds} value={c.seconds}>{c.seconds === 0 ? c.label : `after ${c.label}`}</option>)}
                </select>{' '}
                once every instance serves the new CA.
              </label>
            </li>
            <li>After that, a client that trusts only the old CA is refused at the TLS handshake. Client certificates created on this tab keep working.</li>
          </ul>
        }
      />
    </div>
  );
}
