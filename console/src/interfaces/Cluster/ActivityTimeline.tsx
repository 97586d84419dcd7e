import type { Cluster, Operation } from '@strata/api';
import { useClusterOperationsQuery } from '../../data/clusters/cluster-operations-query';
import { formatDuration } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Badge, OperationStateBadge } from '../../components/ui/Badge';
import { EmptyState, ErrorState, LoadingState } from '../../components/ui/States';
import { OPERATION_TITLES, StepList } from './OperationProgress';
import { EventsTimeline } from './EventsTimeline';
import { TimeAgo } from '../../components/ui/TimeAgo';

/** Operations (newest first) and the cluster's condition transitions. */
export function ActivityTimeline({ cluster }: { cluster: Cluster }) {
  const ops = useClusterOperationsQuery(cluster.id);
  const now = useNow(5000);
  return (
    <div className="stack-lg">
      <EventsTimeline clusterId={cluster.id} fast={cluster.status.phase === 'degraded'} />
      <section className="card" aria-labelledby="ops-title">
        <div className="card-head">
          <h2 id="ops-title" className="card-title">
            Operations
          </h2>
          <span className="muted small">Every change to this cluster, newest first.</span>
        </div>
        {ops.isPending ? (
          <LoadingState label="Loading operations…" />
        ) : ops.isError ? (
          <ErrorState error={ops.error} title="Could not load operations" onRetry={() => void ops.refetch()} />
        ) : ops.data.items.length === 0 ? (
          <EmptyState icon="info" title="No operations yet" />
        ) : (
          <ol className="timeline" aria-label="Operations timeline" data-testid="operations-timeline">
            {ops.data.items.map((op) => (
              <TimelineItem key={op.id} op={op} now={now} />
            ))}
          </ol>
        )}
      </section>
      <section className="card" aria-labelledby="cond-title">
        <div className="card-head">
          <h2 id="cond-title" className="card-title">
            Conditions
          </h2>
          <span className="muted small">What the control plane last observed.</span>
        </div>
        {cluster.status.conditions.length === 0 ? (
          <p className="muted pad">No conditions reported yet.</p>
        ) : (
          <table className="table table-cards" aria-label="Conditions">
            <thead>
              <tr>
                <th scope="col">Condition</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Message</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {cluster.status.conditions.map((c) => (
                <tr key={c.type}>
                  <td data-label="Condition" className="strong">{c.type}</td>
                  <td data-label="Status">
                    <Badge tone={c.status === 'true' ? 'success' : c.status === 'false' ? 'warning' : 'neutral'}>{c.status}</Badge>
                  </td>
                  <td data-label="Reason" className="mono small">{c.reason}</td>
                  <td data-label="Message" className="small">{c.message}</td>
                  <td data-label="Changed">
                    <TimeAgo at={c.lastTransitionAt} now={now} className="small" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

function TimelineItem({ op, now }: { op: Operation; now: number }) {
  const active = op.state === 'pending' || op.state === 'running';
  return (
    <li className={`timeline-item tl-${op.state}`}>
      <span className="timeline-marker" aria-hidden="true" />
      <details className="timeline-body" open={active || op.state === 'failed'}>
        <summary>
          <span className="timeline-title">{OPERATION_TITLES[op.kind]}</span>
          <OperationStateBadge state={op.state} />
          <span className="muted small">
            <TimeAgo at={op.createdAt} now={now} />
            {' · '}
            {formatDuration(op.createdAt, op.finishedAt, now)}
          </span>
        </summary>
        {op.error && (
          <p className="op-error">
            <strong>{op.error.code}:</strong> {op.error.message}
          </p>
        )}
        <StepList operation={op} now={now} />
      </details>
    </li>
  );
}
