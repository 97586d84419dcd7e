import { Suspense, useState } from 'react';
import { ENGINE_LABELS, type Cluster, type Operation } from '@strata/api';
import { useClusterQuery } from '../../data/clusters/cluster-query';
import { useClusterOperationsQuery } from '../../data/clusters/cluster-operations-query';
import { isOperationActive } from '../../data/polling';
import { useClusterDeleted } from '../../data/live/live-store';
import { usePrefetchBenchmarkPresets } from '../../data/benchmarks/benchmark-presets-query';
import { Link } from '../../lib/router';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { formatAgo, formatDateTime, formatMemoryMb, plural } from '../../lib/format';
import { datasetMemoryMb, instanceCount, reservedMemoryMb } from '../../lib/cluster-math';
import { PageHeader } from '../../components/layout/PageHeader';
import { ClusterStatusBadge } from '../../components/ui/Badge';
import { Icon } from '../../components/ui/Icon';
import { EmptyState, ErrorState, LoadingState } from '../../components/ui/States';
import { NavTabs } from '../../components/ui/Tabs';
import { DURABILITY_LABELS } from './labels';
import { ActivityTimeline } from './ActivityTimeline';
import { ConnectionPanel } from './ConnectionPanel';
import { DeleteClusterDialog } from './DeleteClusterDialog';
import { OPERATION_TITLES, OperationProgress } from './OperationProgress';
import { TopologyPanel } from './TopologyPanel';
import { SettingsTab } from './Settings/SettingsTab';
import { ClusterHealthAlert } from './ClusterHealthAlert';
import { lazyPart } from '../../lib/lazy-part';

// uPlot and the charts load only when the Monitoring tab opens.
const MonitoringTab = lazyPart(() => import('./Monitoring/MonitoringTab'), (m) => m.MonitoringTab);
const UsersTab = lazyPart(() => import('./Users/UsersTab'), (m) => m.UsersTab);
const BenchmarksTab = lazyPart(() => import('./Benchmarks/BenchmarksTab'), (m) => m.BenchmarksTab);
const BackupsTab = lazyPart(() => import('./Backups/BackupsTab'), (m) => m.BackupsTab);
const DiagnosticsTab = lazyPart(() => import('./Diagnostics/DiagnosticsTab'), (m) => m.DiagnosticsTab);

// Later issues add monitoring, benchmark and topology-change tabs here.
const TABS = [
  { key: 'overview', title: 'Overview', path: '' },
  { key: 'monitoring', title: 'Monitoring', path: '/monitoring' },
  { key: 'users', title: 'Users', path: '/users' },
  { key: 'benchmarks', title: 'Benchmarks', path: '/benchmarks' },
  { key: 'backups', title: 'Backups', path: '/backups' },
  { key: 'diagnostics', title: 'Diagnostics', path: '/diagnostics' },
  { key: 'activity', title: 'Activity', path: '/activity' },
  { key: 'settings', title: 'Settings', path: '/settings' },
] as const;

export default function ClusterPage({ id, tab }: { id: string; tab: string }) {
  const cluster = useClusterQuery(id);
  // Asked only once the cluster is known: for a cluster that is not there, one 404 is enough.
  const ops = useClusterOperationsQuery(id, { enabled: cluster.isSuccess });
  const deleted = useClusterDeleted(id);
  // The Benchmarks tab's code loads on demand: ask for its presets at once, not after the chunk arrived.
  usePrefetchBenchmarkPresets(id, tab === 'benchmarks' && cluster.isSuccess);
  useDocumentTitle(cluster.data?.name ?? 'Cluster');

  if (deleted) return <ClusterGone />;
  if (cluster.isPending) return <LoadingState label="Loading cluster…" />;
  if (cluster.isError) {
    if (cluster.error.status === 404 || cluster.error.status === 400) {
      return (
        <>
          <EmptyState
            level={1}
            icon="clusters"
            title="Cluster not found"
            action={
              <Link to="/clusters" className="btn btn-secondary">
                <Icon name="arrowLeft" /> Back to clusters
              </Link>
            }
          >
            It may have been deleted, or it belongs to another organization.
          </EmptyState>
        </>
      );
    }
    return <ErrorState level={1} error={cluster.error} title="Could not load the cluster" onRetry={() => void cluster.refetch()} />;
  }

  const c = cluster.data;
  const latest = ops.data?.items[0];
  const showOp = latest && (isOperationActive(latest.state) || (latest.state === 'failed' && c.status.phase === 'failed'));
  const current = TABS.find((t) => t.key === tab) ?? TABS[0];

  return (
    <>
      <ClusterHeader cluster={c} />
      <ClusterHealthAlert cluster={c} />
      {showOp && <OperationProgress operation={latest} />}
      <NavTabs
        label="Cluster sections"
        current={current.key}
        tabs={TABS.map((t) => ({ key: t.key, title: t.title, href: `/clusters/${c.id}${t.path}` }))}
      />
      <div className="tab-content">
        {current.key === 'overview' ? <Overview cluster={c} latest={latest} />
          : current.key === 'monitoring' ? <Suspense fallback={<LoadingState label="Loading charts…" />}><MonitoringTab clusterId={c.id} /></Suspense>
          : current.key === 'settings' ? <SettingsTab cluster={c} latest={latest} />
          : current.key === 'users' ? <Suspense fallback={<LoadingState label="Loading users…" />}><UsersTab clusterId={c.id} /></Suspense>
          : current.key === 'benchmarks' ? <Suspense fallback={<LoadingState label="Loading benchmarks…" />}><BenchmarksTab clusterId={c.id} /></Suspense>
          : current.key === 'backups' ? <Suspense fallback={<LoadingState label="Loading backups…" />}><BackupsTab clusterId={c.id} /></Suspense>
          : current.key === 'diagnostics' ? <Suspense fallback={<LoadingState label="Loading diagnostics…" />}><DiagnosticsTab cluster={c} /></Suspense>
          : <ActivityTimeline cluster={c} />}
      </div>
    </>
  );
}

function ClusterGone() {
  return (
    <EmptyState
      level={1}
      icon="clusters"
      title="Cluster deleted"
      action={
        <Link to="/clusters" className="btn btn-secondary">
          <Icon name="arrowLeft" /> Back to clusters
        </Link>
      }
    >
      Its instances are stopped and its data is gone.
    </EmptyState>
  );
}

function ClusterHeader({ cluster }: { cluster: Cluster }) {
  const [deleting, setDeleting] = useState(false);
  const s = cluster.spec;
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/clusters', title: 'Clusters' }]}
        title={cluster.name}
        meta={<ClusterStatusBadge phase={cluster.status.phase} />}
        description={
          <span className="spec-line">
            <span>{plural(s.shards, 'shard')}</span>
            <span>{plural(s.replicasPerShard, 'replica')} per shard</span>
            <span>{formatMemoryMb(s.memoryMbPerShard)} per shard</span>
            <span>{DURABILITY_LABELS[s.durability]}</span>
            <span>{ENGINE_LABELS[s.engineVersion]}</span>
            {s.tls === 'required' && <span>TLS only</span>}
          </span>
        }
        actions={
          <button
            type="button"
            className="btn btn-danger-outline"
            onClick={() => setDeleting(true)}
            disabled={cluster.status.phase === 'deleting'}
          >
            <Icon name="trash" />
            Delete
          </button>
        }
      />
      <DeleteClusterDialog cluster={cluster} open={deleting} onClose={() => setDeleting(false)} />
    </>
  );
}

function Overview({ cluster, latest }: { cluster: Cluster; latest: Operation | undefined }) {
  const now = useNow(5000);
  const s = cluster.spec;
  return (
    <div className="stack-lg">
      <section className="card" aria-labelledby="config-title">
        <h2 id="config-title" className="visually-hidden">
          Configuration
        </h2>
        <dl className="stats">
          <div>
            <dt>Instances</dt>
            <dd>{instanceCount(s)}</dd>
          </div>
          <div>
            <dt>Shards</dt>
            <dd>
              {plural(s.shards, 'shard')}, {plural(s.replicasPerShard, 'replica')} each
            </dd>
          </div>
          <div>
            <dt>Dataset memory</dt>
            <dd>{formatMemoryMb(datasetMemoryMb(s))}</dd>
          </div>
          <div>
            <dt>Reserved memory</dt>
            <dd>{formatMemoryMb(reservedMemoryMb(s))}</dd>
          </div>
          <div>
            <dt>Eviction</dt>
            <dd className="mono">{s.evictionPolicy}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={cluster.createdAt} title={formatDateTime(cluster.createdAt)}>
                {formatAgo(cluster.createdAt, now)}
              </time>
            </dd>
          </div>
        </dl>
        {latest && !isOperationActive(latest.state) && (
          <p className="stats-foot muted small">
            Last operation: {OPERATION_TITLES[latest.kind]} {latest.state} {formatAgo(latest.finishedAt ?? latest.updatedAt, now)}.{' '}
            <Link to={`/clusters/${cluster.id}/activity`}>See activity</Link>
          </p>
        )}
      </section>
      <ConnectionPanel clusterId={cluster.id} phase={cluster.status.phase} />
      <TopologyPanel clusterId={cluster.id} phase={cluster.status.phase} />
    </div>
  );
}
