import { useState } from 'react';
import { shardLabel } from '@strata/api';
import { useSlowLogQuery } from '../../../data/diagnostics/slowlog-query';
import { useSlowLogResetMutation } from '../../../data/diagnostics/slowlog-reset-mutation';
import { isApiError } from '../../../data/fetcher';
import { useNow } from '../../../lib/hooks';
import { plural } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Icon } from '../../../components/ui/Icon';
import { ErrorState, InlineAlert, SkeletonRows } from '../../../components/ui/States';
import { TimeAgo } from '../../../components/ui/TimeAgo';
import { formatMicros } from '../Monitoring/format';

/** Every instance's slow log merged, newest first: command, duration, client, when, where; with a reset. */
export function SlowLogPanel({ clusterId }: { clusterId: string }) {
  const log = useSlowLogQuery(clusterId);
  const reset = useSlowLogResetMutation(clusterId);
  const [asking, setAsking] = useState(false);
  const now = useNow(10_000);
  const missing = log.data?.sources.filter((s) => !s.ok) ?? [];
  const threshold = log.data?.sources.find((s) => s.slowerThanMicros !== null)?.slowerThanMicros;
  return (
    <section className="card" aria-labelledby="slowlog-title" data-testid="slowlog-panel">
      <div className="diag-head">
        <div>
          <h2 id="slowlog-title" className="card-title">Slow log</h2>
          <p className="muted small">
            Commands that took longer than {threshold !== undefined && threshold !== null ? formatMicros(threshold) : 'the threshold'} on any instance, newest first.
          </p>
        </div>
        <div className="diag-actions">
          <button type="button" className="btn btn-secondary" onClick={() => void log.refetch()} disabled={log.isFetching}>
            <Icon name="refresh" /> {log.isFetching ? 'Reading…' : 'Refresh'}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setAsking(true)} disabled={!log.data?.entries.length}>
            Reset
          </button>
        </div>
      </div>
      <div className="diag-body">
        {missing.length > 0 && (
          <InlineAlert tone="warning" title={`${plural(missing.length, 'instance')} not read`}>
            {missing.map((s) => `${s.address} (${shardLabel(s.shard)}): ${s.error ?? 'no answer'}`).join('; ')}
          </InlineAlert>
        )}
        {log.isError ? <ErrorState error={log.error} title="Could not read the slow log" onRetry={() => void log.refetch()} />
          : (
            <div className="diag-table-wrap">
              <table className="table table-cards diag-table" aria-label="Slow log" aria-busy={log.isPending}>
                <thead>
                  <tr><th>When</th><th>Duration</th><th>Command</th><th>Client</th><th>Instance</th></tr>
                </thead>
                <tbody>
                  {log.isPending ? <SkeletonRows cols={5} />
                    : log.data.entries.length === 0 ? (
                      <tr><td colSpan={5} className="muted" data-testid="slowlog-empty">No slow commands recorded.</td></tr>
                    ) : log.data.entries.map((e) => (
                      <tr key={`${e.instanceId}-${e.id}`} data-testid="slowlog-row">
                        <td data-label="When"><TimeAgo at={e.at} now={now} /></td>
                        <td data-label="Duration" className="tabular">{formatMicros(e.durationMicros)}</td>
                        <td data-label="Command" className="mono">
                          <strong>{e.command}</strong> <span className="diag-args">{e.args.join(' ')}{e.argsOmitted ? ` … (${e.argsOmitted} more)` : ''}</span>
                        </td>
                        <td data-label="Client" className="mono">{e.client}{e.clientName ? ` (${e.clientName})` : ''}</td>
                        <td data-label="Instance" className="mono">{shardLabel(e.shard)} · {e.role ?? '?'} · {e.address}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          )}
      </div>
      <ConfirmDialog
        open={asking}
        testId="slowlog-reset-confirm"
        title="Empty the slow log of every instance?"
        tone="primary"
        confirmLabel="Reset"
        pendingLabel="Resetting…"
        pending={reset.isPending}
        error={reset.error ? (isApiError(reset.error) ? reset.error.summary : String(reset.error)) : null}
        onClose={() => { setAsking(false); reset.reset(); }}
        onConfirm={() => reset.mutate(undefined, {
          onSuccess: (r) => {
            setAsking(false);
            toast(`Slow log emptied on ${plural(r.reset, 'instance')}.`);
          },
        })}
        impact={<ul><li>SLOWLOG RESET on every instance: the entries shown here are gone for good.</li></ul>}
      />
    </section>
  );
}
