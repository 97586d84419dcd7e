import type { Alert } from '@strata/api';
import { useNow } from '../../lib/hooks';
import { formatAgo, formatDateTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { Badge } from '../../components/ui/Badge';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/ui/States';
import { useAlertsQuery } from '../../data/alerts/alerts-query';

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** Firing alerts first, then the recent history, each linking to its cluster. */
export function FiringSection() {
  const alerts = useAlertsQuery();
  const now = useNow(5000);
  const items: Alert[] = alerts.data ? [...alerts.data.items].sort((a, b) => Number(b.state === 'firing') - Number(a.state === 'firing')) : [];
  const firing = items.filter((a) => a.state === 'firing').length;
  return (
    <section className="card" aria-labelledby="firing-title" style={{ marginBottom: 24, padding: 20 }}>
      <h2 id="firing-title">Firing and recent alerts</h2>
      <p className="muted" data-testid="firing-count">{firing ? `${firing} firing now.` : 'Nothing firing.'}</p>
      {alerts.isError ? (
        <ErrorState error={alerts.error} title="Could not load alerts" onRetry={() => void alerts.refetch()} />
      ) : !alerts.isPending && !items.length ? (
        <EmptyState icon="alert" title="No alerts yet">When a rule fires it shows here, with a link to its cluster.</EmptyState>
      ) : (
        <table className="table table-cards" aria-label="Alerts" aria-busy={alerts.isPending}>
          <thead>
            <tr><th scope="col">State</th><th scope="col">Rule</th><th scope="col">Cluster</th><th scope="col">Value</th><th scope="col">Fired</th><th scope="col">Resolved</th></tr>
          </thead>
          <tbody>
            {alerts.isPending ? <SkeletonRows cols={6} /> : items.map((a) => (
              <tr key={a.id} data-testid={`alert-${a.ruleId}`}>
                <td data-label="State">{a.state === 'firing' ? <Badge tone="danger" pulse>Firing</Badge> : <Badge tone="success">Resolved</Badge>}</td>
                <td data-label="Rule">{a.ruleName}</td>
                <td data-label="Cluster"><Link to={`/clusters/${a.clusterId}`}>{a.clusterName}</Link></td>
                <td data-label="Value">{fmt(a.value)}{a.unit && a.unit !== 'events' ? ` ${a.unit}` : ''}</td>
                <td data-label="Fired" title={formatDateTime(a.startedAt)}>{formatAgo(a.startedAt, now)}</td>
                <td data-label="Resolved" title={a.resolvedAt ? formatDateTime(a.resolvedAt) : undefined}>{a.resolvedAt ? formatAgo(a.resolvedAt, now) : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
