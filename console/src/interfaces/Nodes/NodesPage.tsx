import type { Node, NodeCurrentMetrics } from '@strata/api';
import { useNodesQuery } from '../../data/nodes/nodes-query';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { formatAgo, formatDateTime, formatMemoryMb, plural } from '../../lib/format';
import { PageHeader } from '../../components/layout/PageHeader';
import { NodeStatusBadge } from '../../components/ui/Badge';
import { Meter } from '../../components/ui/ProgressBar';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/ui/States';
import { useCurrentNodeMetricsQuery } from '../../data/metrics/current-metrics-query';
import { NodeUsage } from './NodeUsage';
import { DrainControl } from './DrainControl';
import { CredentialControl } from './CredentialControl';
import { DiskProfilePanel } from './DiskProfilePanel';
import { ProfileCompare } from './ProfileCompare';
import { useState } from 'react';

/** Memory reserved by the instances listed on a node (the caller's own). */
const ownMemoryMb = (n: Node) => n.instances.reduce((a, i) => a + i.memoryMb, 0);

/**
 * Platform admins see the fleet: every node, its capacity and host load, and
 * every organization's instances (named organization/cluster).
 * Everyone else sees only the nodes their clusters run on, with their own
 * instances and memory: never another organization's usage.
 */
export default function NodesPage() {
  useDocumentTitle('Nodes');
  const nodes = useNodesQuery();
  const now = useNow(1000);
  const items = nodes.data?.items ?? [];
  const fleet = nodes.data?.scope === 'fleet';
  const usage = useCurrentNodeMetricsQuery({ enabled: fleet });
  const online = items.filter((n) => n.status === 'online').length;
  const total = items.reduce((a, n) => a + (n.capacity?.memoryMb ?? 0), 0);
  const used = items.reduce((a, n) => a + (n.capacity?.usedMemoryMb ?? ownMemoryMb(n)), 0);
  const cols = fleet ? 6 : 5;
  const [profiling, setProfiling] = useState<string | null>(null);
  const [compare, setCompare] = useState<string[]>([]);
  const toggleCompare = (id: string) => setCompare((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id].slice(-2)));
  const profiled = items.find((n) => n.id === profiling);

  return (
    <>
      <PageHeader
        title="Nodes"
        description={
          nodes.data && !fleet
            ? 'The machines your clusters run on, with your instances on each.'
            : 'Machines running the Strata agent. Clusters are placed on online nodes.'
        }
      />
      {nodes.isError ? (
        <ErrorState error={nodes.error} title="Could not load nodes" onRetry={() => void nodes.refetch()} />
      ) : !nodes.isPending && items.length === 0 ? (
        <div className="card">
          {fleet ? (
            <EmptyState icon="nodes" title="No nodes have joined yet">
              Start an agent with a join token; it registers itself and appears here within seconds.
            </EmptyState>
          ) : (
            <EmptyState icon="nodes" title="None of your clusters runs on a node yet">
              Nodes appear here once a cluster of yours has instances placed on them.
            </EmptyState>
          )}
        </div>
      ) : (
        <>
          {!nodes.isPending && (
            <dl className="stats stats-cards">
              <div className="card">
                <dt>Online</dt>
                <dd>
                  {online} <span className="muted">/ {items.length}</span>
                </dd>
              </div>
              <div className="card">
                <dt>{fleet ? 'Memory in use' : 'Memory of your instances'}</dt>
                <dd>
                  {formatMemoryMb(used)} {fleet && <span className="muted">/ {formatMemoryMb(total)}</span>}
                </dd>
              </div>
              <div className="card">
                <dt>{fleet ? 'Instances' : 'Your instances'}</dt>
                <dd>{items.reduce((a, n) => a + n.instances.length, 0)}</dd>
              </div>
            </dl>
          )}
          <div className="card table-card">
            <table className="table table-cards" aria-label="Nodes" aria-busy={nodes.isPending}>
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Status</th>
                  <th scope="col">{fleet ? 'Capacity' : 'Your memory'}</th>
                  {fleet && <th scope="col">CPU / memory</th>}
                  <th scope="col">Instances</th>
                  <th scope="col">Last heartbeat</th>
                </tr>
              </thead>
              <tbody>
                {nodes.isPending ? (
                  <SkeletonRows cols={cols} />
                ) : (
                  items.map((n) => (
                    <NodeRow key={n.id} node={n} now={now} fleet={fleet} usage={usage.data?.items.find((u) => u.nodeId === n.id)} onProfile={() => setProfiling(n.id)} />
                  ))
                )}
              </tbody>
            </table>
          </div>
          {fleet && profiled && <DiskProfilePanel key={profiled.id} node={profiled} compare={compare} onCompare={toggleCompare} onClose={() => setProfiling(null)} />}
          {fleet && compare.length > 0 && <ProfileCompare ids={compare} onClear={() => setCompare([])} />}
        </>
      )}
    </>
  );
}

function NodeRow({ node, now, fleet, usage, onProfile }: { node: Node; now: number; fleet: boolean; usage?: NodeCurrentMetrics; onProfile: () => void }) {
  // The fleet view names each cluster with its organization (instances of every organization are listed).
  const clusters = [...new Set(node.instances.map((i) => (fleet ? `${i.organizationName}/${i.clusterName}` : i.clusterName)))];
  const primaries = node.instances.filter((i) => i.role === 'primary').length;
  const heartbeatAge = node.lastHeartbeatAt ? (now - Date.parse(node.lastHeartbeatAt)) / 1000 : Infinity;
  return (
    <tr data-testid="node-row" data-node-name={node.name}>
      <td data-label="Node">
        <div className="strong">{node.name}</div>
        <div className="cell-sub mono">
          {node.address}
          {node.agentVersion ? ` · agent ${node.agentVersion}` : ''}
        </div>
      </td>
      <td data-label="Status">
        <NodeStatusBadge status={node.status} />
        {fleet ? <DrainControl node={node} /> : node.draining && <div className="cell-sub">draining</div>}
        {fleet && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={onProfile} disabled={node.status !== 'online'}>
            Profile this disk
          </button>
        )}
        {fleet && <CredentialControl node={node} />}
      </td>
      <td className="cell-capacity" data-label={fleet ? 'Capacity' : 'Your memory'}>
        {node.capacity ? (
          <>
            <Meter used={node.capacity.usedMemoryMb} total={node.capacity.memoryMb} label={`${node.name} memory used`} />
            <div className="cell-sub tabular">
              {formatMemoryMb(node.capacity.usedMemoryMb)} of {formatMemoryMb(node.capacity.memoryMb)}
            </div>
          </>
        ) : (
          <span className="tabular" data-testid="own-memory">
            {formatMemoryMb(ownMemoryMb(node))}
          </span>
        )}
      </td>
      {fleet && (
        <td className="cell-capacity" data-label="CPU / memory">
          <NodeUsage name={node.name} usage={usage} />
        </td>
      )}
      <td data-label="Instances">
        <span className="tabular">{node.instances.length}</span>
        <div className="cell-sub">
          {node.instances.length === 0
            ? 'idle'
            : `${plural(primaries, 'primary', 'primaries')}, ${plural(node.instances.length - primaries, 'replica')} · ${clusters.slice(0, 3).join(', ')}${clusters.length > 3 ? '…' : ''}`}
        </div>
      </td>
      <td data-label="Last heartbeat">
        <time
          dateTime={node.lastHeartbeatAt ?? undefined}
          title={formatDateTime(node.lastHeartbeatAt ?? undefined)}
          className={heartbeatAge > 30 ? 'tabular danger-text' : 'tabular'}
        >
          {formatAgo(node.lastHeartbeatAt, now)}
        </time>
      </td>
    </tr>
  );
}
