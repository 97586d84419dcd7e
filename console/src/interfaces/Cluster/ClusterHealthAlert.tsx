import type { Cluster } from '@strata/api';

/**
 * Why a cluster is not ready, from its conditions (what is wrong, then what
 * Strata is doing about it). Updated live with the phase.
 */
export function ClusterHealthAlert({ cluster }: { cluster: Cluster }) {
  const { phase, conditions } = cluster.status;
  if (phase !== 'degraded' && phase !== 'failed') return null;
  const wrong = conditions.filter((c) => c.status === 'false');
  const doing = conditions.filter((c) => c.type === 'Healing' && c.status === 'true');
  const tone = phase === 'failed' ? 'danger' : 'warning';
  return (
    <div className={`alert alert-${tone} health-alert`} role="status" data-testid="cluster-reason">
      <div>
        <strong className="alert-title">{phase === 'failed' ? 'The cluster failed' : 'The cluster is degraded'}</strong>
        <ul className="alert-body health-reasons">
          {wrong.length === 0 && <li>Strata is checking the instances.</li>}
          {wrong.map((c) => (
            <li key={c.type} data-reason={c.reason}>
              <span className="strong">{c.reason}</span>: {c.message}
            </li>
          ))}
          {doing.map((c) => (
            <li key={c.type} className="muted">
              Strata is acting: {c.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
