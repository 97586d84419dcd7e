import type { NodeCurrentMetrics } from '@strata/api';
import { Meter } from '../../components/ui/ProgressBar';
import { formatBytes, formatPercent } from '../Cluster/Monitoring/format';

/** Host CPU and memory of a node from its agent's last metrics sample. */
export function NodeUsage({ name, usage }: { name: string; usage: NodeCurrentMetrics | undefined }) {
  if (!usage || usage.ts === null || usage.cpu === null) return <span className="muted small">no samples</span>;
  return (
    <div data-testid="node-usage">
      <Meter used={Math.round(usage.cpu * 100)} total={100} label={`${name} CPU`} />
      <div className="cell-sub tabular" data-testid="node-cpu">CPU {formatPercent(usage.cpu)}</div>
      <div className="cell-sub tabular" data-testid="node-memory">
        RAM {formatBytes(usage.memoryUsed)} of {formatBytes(usage.memoryTotal)}
      </div>
    </div>
  );
}
