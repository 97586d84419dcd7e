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

const COLS = 6;

export default function NodesPage() {
  useDocumentTitle('Nodes');
  const nodes = useNodesQuery();
  const now = useNow(1000);
  const items = nodes.data?.items ?? [];
  const usage = useCurrentNodeMetricsQuery();
  const online = items.filter((n) => n.status === 'online').length;
  const total = items.reduce((a, n) => a + n.capacity.memoryMb, 0);
  const used = items.reduce((a, n) => a + n.capacity.usedMemoryMb, 0);

  return (
    <>
      <PageHeader title="Nodes" description="Machines running the Strata agent. Clusters are placed on online nodes." />
      {nodes.isError ? (
        <ErrorState error={nodes.error} title="Could not load nodes" onRetry={() => void nodes.refetch()} />
      ) : !nodes.isPending && items.length === 0 ? (
        <div className="card">
          <EmptyState icon="nodes" title="No nodes have joined yet">
            Start an agent with a join token; it registers itself and appears here within seconds.
          </EmptyState>
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
                <dt>Memory in use</dt>
                <dd>
                  {formatMemoryMb(used)} <span className="muted">/ {formatMemoryMb(total)}</span>
                </dd>
              </div>
              <div className="card">
                <dt>Instances</dt>
                <dd>{items.reduce((a, n) => a + n.instances.length, 0)}</dd>
              </div>
            </dl>
          )}
          <div className="card table-card">
            <table className="table" aria-label="Nodes" aria-busy={nodes.isPending}>
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Status</th>
                  <th scope="col">Capacity</th>
                  <th scope="col">CPU / memory</th>
                  <th scope="col">Instances</th>
                  <th scope="col">Last heartbeat</th>
                </tr>
              </thead>
              <tbody>
                {nodes.isPending ? <SkeletonRows cols={COLS} /> : items.map((n) => <NodeRow key={n.id} node={n} now={now} usage={usage.data?.items.find((u) => u.nodeId === n.id)} />)}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function NodeRow({ node, now, usage }: { node: Node; now: number; usage?: NodeCurrentMetrics }) {
  const { memoryMb, usedMemoryMb } = node.capacity;
  const clusters = [...new Set(node.instances.map((i) => i.clusterName))];
  const primaries = node.instances.filter((i) => i.role === 'primary').length;
  const heartbeatAge = node.lastHeartbeatAt ? (now - Date.parse(node.lastHeartbeatAt)) / 1000 : Infinity;
  return (
    <tr data-testid="node-row" data-node-name={node.name}>
      <td>
        <div className="strong">{node.name}</div>
        <div className="cell-sub mono">
          {node.address}
          {node.agentVersion ? ` · agent ${node.agentVersion}` : ''}
        </div>
      </td>
      <td>
        <NodeStatusBadge status={node.status} />
      </td>
      <td className="cell-capacity">
        <Meter used={usedMemoryMb} total={memoryMb} label={`${node.name} memory used`} />
        <div className="cell-sub tabular">
          {formatMemoryMb(usedMemoryMb)} of {formatMemoryMb(memoryMb)}
        </div>
      </td>
      <td className="cell-capacity">
        <NodeUsage name={node.name} usage={usage} />
      </td>
      <td>
        <span className="tabular">{node.instances.length}</span>
        <div className="cell-sub">
          {node.instances.length === 0
            ? 'idle'
            : `${plural(primaries, 'primary', 'primaries')}, ${plural(node.instances.length - primaries, 'replica')} · ${clusters.slice(0, 3).join(', ')}${clusters.length > 3 ? '…' : ''}`}
        </div>
      </td>
      <td>
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
