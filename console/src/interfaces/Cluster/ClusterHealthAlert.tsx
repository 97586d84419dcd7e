import type { Cluster } from '@strata/api';
import { useClusterTopologyQuery } from '../../data/clusters/cluster-topology-query';
import { useClusterEventsQuery } from '../../data/clusters/cluster-events-query';
import { degradedSummary, recoveredSummary } from '../../lib/degraded-summary';
import { useNow } from '../../lib/hooks';

/** The condition reasons in plain words (the code stays on the line as data-reason, and in Activity's table). */
const REASON_TEXT: Record<string, string> = {
  NodeSilent: 'A node stopped reporting',
  InstanceDown: 'An instance is not running',
  ShardWithoutPrimary: 'A shard has no primary',
  MembersDisagree: 'Not every instance is a healthy member yet',
  NotServed: 'The stable endpoint is not served',
};

/**
 * Why a cluster is not ready: first what happened, in plain words per shard
 * (from the topology and the recent events), then what Strata is doing about
 * it; the conditions themselves under "Details". Updated live with the phase.
 */
export function ClusterHealthAlert({ cluster }: { cluster: Cluster }) {
  const { phase, conditions } = cluster.status;
  const troubled = phase === 'degraded' || phase === 'failed';
  const topology = useClusterTopologyQuery(cluster.id, { fast: troubled });
  // Read while ready too (the live stream re-reads it on each new event): a failover that healed in a second still gets told.
  const events = useClusterEventsQuery(cluster.id, { fast: troubled, enabled: troubled || phase === 'ready' });
  const now = useNow(1000);
  if (!troubled) return <RecoveredNotice lines={recoveredSummary(events.data?.items, phase, now)} />;
  const story = degradedSummary(topology.data, events.data?.items, phase, now);
  const wrong = conditions.filter((c) => c.status === 'false');
  const doing = conditions.filter((c) => c.type === 'Healing' && c.status === 'true');
  const tone = phase === 'failed' ? 'danger' : 'warning';
  return (
    <div className={`alert alert-${tone} health-alert`} role="status" data-testid="cluster-reason">
      <div>
        <strong className="alert-title">{phase === 'failed' ? 'The cluster failed' : 'The cluster is degraded'}</strong>
        <ul className="alert-body health-reasons">
          {story.map((line) => (
            <li key={line} data-testid="degraded-story">{line}</li>
          ))}
          {story.length === 0 && wrong.length === 0 && <li>Strata is checking the instances.</li>}
          {story.length === 0 && wrong.map((c) => (
            <li key={c.type} data-reason={c.reason}>
              {REASON_TEXT[c.reason] ?? c.reason}: {c.message}
            </li>
          ))}
          {doing.map((c) => (
            <li key={c.type} className="muted">
              Strata is acting: {c.message}
            </li>
          ))}
        </ul>
        {story.length > 0 && wrong.length > 0 && (
          <details className="health-details small">
            <summary>Details</summary>
            <ul className="health-reasons">
              {wrong.map((c) => (
                <li key={c.type} data-reason={c.reason}>
                  {REASON_TEXT[c.reason] ?? c.reason}: {c.message}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </div>
  );
}

/** A ready cluster that failed over lately: what happened, for two minutes after it. */
function RecoveredNotice({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="alert alert-success health-alert" role="status" data-testid="cluster-recovered">
      <div>
        <strong className="alert-title">Recovered from a failover</strong>
        <ul className="alert-body health-reasons">
          {lines.map((line) => (
            <li key={line} data-testid="recovered-story">{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
