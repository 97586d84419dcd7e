import type { ClusterEvent } from '@strata/api';
import { useClusterEventsQuery } from '../../data/clusters/cluster-events-query';
import { useNow } from '../../lib/hooks';
import { Badge } from '../../components/ui/Badge';
import { TimeAgo } from '../../components/ui/TimeAgo';
import { EmptyState, ErrorState, LoadingState } from '../../components/ui/States';

const TITLES: Record<ClusterEvent['type'], string> = {
  failover: 'Failover',
  'instance-restarted': 'Instance restarted',
  'data-lost': 'Data lost',
  'primaries-rebalanced': 'Primaries rebalanced',
  'slots-repaired': 'Slots repaired',
  'node-down': 'Node down',
  'replica-rebuilt': 'Replica rebuilt',
  'certificate-rotated': 'Certificate rotated',
  'client-certificate-revoked': 'Client certificate revoked',
  'backup-completed': 'Backup completed',
  'backup-failed': 'Backup failed',
  'restore-completed': 'Restored from a backup',
  'tls-switched': 'TLS switched',
};

const TONES: Record<ClusterEvent['type'], 'info' | 'warning' | 'danger' | 'success' | 'neutral'> = {
  failover: 'warning',
  'instance-restarted': 'info',
  'data-lost': 'danger',
  'primaries-rebalanced': 'success',
  'slots-repaired': 'success',
  'node-down': 'danger',
  'replica-rebuilt': 'info',
  'certificate-rotated': 'success',
  'client-certificate-revoked': 'warning',
  'backup-completed': 'success',
  'backup-failed': 'danger',
  'restore-completed': 'success',
  'tls-switched': 'info',
};

/** What happened to the cluster and what Strata did about it, newest first. */
export function EventsTimeline({ clusterId, fast }: { clusterId: string; fast?: boolean }) {
  const events = useClusterEventsQuery(clusterId, { fast });
  const now = useNow(5000);
  return (
    <section className="card" aria-labelledby="events-title">
      <div className="card-head">
        <h2 id="events-title" className="card-title">
          Events
        </h2>
        <span className="muted small">Failovers, restarts and repairs Strata handled, backups and restores, newest first.</span>
      </div>
      {events.isPending ? (
        <LoadingState label="Loading events…" />
      ) : events.isError ? (
        <ErrorState error={events.error} title="Could not load events" onRetry={() => void events.refetch()} />
      ) : events.data.items.length === 0 ? (
        <EmptyState icon="info" title="Nothing has happened to this cluster yet" />
      ) : (
        <ol className="timeline" aria-label="Events timeline" data-testid="events-timeline">
          {events.data.items.map((e) => (
            <li key={e.id} className="timeline-item" data-testid="event" data-event-type={e.type}>
              <span className="timeline-marker" aria-hidden="true" />
              <div className="timeline-body">
                <div className="event-head">
                  <span className="timeline-title">{TITLES[e.type]}</span>
                  <Badge tone={TONES[e.type]}>{e.type === 'failover' ? e.cause : e.type}</Badge>
                  {e.type === 'failover' && e.writeUnavailableMs !== null && (
                    <span className="small strong tabular" data-testid="write-window">
                      {e.writeUnavailableMs.toLocaleString()} ms without writes
                    </span>
                  )}
                  <TimeAgo at={e.at} now={now} className="muted small" />
                </div>
                <p className="small">{e.message}</p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
