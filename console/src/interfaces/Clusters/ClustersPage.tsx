import { useClustersQuery } from '../../data/clusters/clusters-query';
import { Link } from '../../lib/router';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { formatAge, formatDateTime, formatMemoryMb, plural } from '../../lib/format';
import { datasetMemoryMb } from '../../lib/cluster-math';
import { PageHeader } from '../../components/layout/PageHeader';
import { ClusterStatusBadge } from '../../components/ui/Badge';
import { Icon } from '../../components/ui/Icon';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/ui/States';
import { useCurrentClusterMetricsQuery } from '../../data/metrics/current-metrics-query';
import { formatRate } from '../Cluster/Monitoring/format';

const COLS = 6;

export default function ClustersPage() {
  useDocumentTitle('Clusters');
  const clusters = useClustersQuery();
  const now = useNow(5000);
  const items = clusters.data?.items ?? [];
  const current = useCurrentClusterMetricsQuery();
  const opsOf = (id: string) => current.data?.items.find((m) => m.clusterId === id);

  const createButton = (
    <Link to="/clusters/new" className="btn btn-primary">
      <Icon name="plus" />
      Create cluster
    </Link>
  );

  return (
    <>
      <PageHeader
        title="Clusters"
        description="Redis Cluster deployments in this organization. Status updates live."
        actions={items.length > 0 ? createButton : undefined}
      />
      {clusters.isError ? (
        <ErrorState error={clusters.error} title="Could not load clusters" onRetry={() => void clusters.refetch()} />
      ) : !clusters.isPending && items.length === 0 ? (
        <div className="card">
          <EmptyState icon="clusters" title="No clusters yet" action={createButton}>
            Create a Redis Cluster: choose shards, replicas and memory, and Strata places it on your nodes.
          </EmptyState>
        </div>
      ) : (
        <div className="card table-card">
          <table className="table table-cards" aria-label="Clusters" aria-busy={clusters.isPending}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">
                  Shape
                </th>
                <th scope="col">Memory</th>
                <th scope="col">Ops/s</th>
                <th scope="col">Age</th>
              </tr>
            </thead>
            <tbody>
              {clusters.isPending ? (
                <SkeletonRows cols={COLS} />
              ) : (
                items.map((c) => (
                  <tr key={c.id} data-testid="cluster-row" data-cluster-name={c.name}>
                    <td data-label="Name">
                      <Link to={`/clusters/${c.id}`} className="cell-link">
                        {c.name}
                      </Link>
                      <div className="cell-sub mono">{c.id.slice(0, 8)}</div>
                    </td>
                    <td data-label="Status">
                      <ClusterStatusBadge phase={c.status.phase} />
                    </td>
                    <td data-label="Shape">
                      <span>{plural(c.spec.shards, 'shard')}</span>
                      <div className="cell-sub">{plural(c.spec.replicasPerShard, 'replica')} each</div>
                    </td>
                    <td data-label="Memory">
                      <span className="tabular">{formatMemoryMb(datasetMemoryMb(c.spec))}</span>
                      <div className="cell-sub">{formatMemoryMb(c.spec.memoryMbPerShard)} per shard</div>
                    </td>
                    <td data-testid="cluster-ops" data-label="Ops/s">
                      <span className="tabular">{formatRate(opsOf(c.id)?.ops, '')}</span>
                      <div className="cell-sub">{opsOf(c.id)?.ops != null ? `${formatRate(opsOf(c.id)?.opsRead, '')} r / ${formatRate(opsOf(c.id)?.opsWrite, '')} w` : 'no samples'}</div>
                    </td>
                    <td data-label="Age">
                      <time dateTime={c.createdAt} title={formatDateTime(c.createdAt)} className="tabular">
                        {formatAge(c.createdAt, now)}
                      </time>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
