import type { Cluster } from '@strata/api';
import { HeatPanel } from './HeatPanel';
import { SlowLogPanel } from './SlowLogPanel';
import { KeyScanPanel } from './KeyScanPanel';
import './diagnostics.css';

/** Why is the cluster slow: shard skew, the slow log of every instance, big and hot keys. */
export function DiagnosticsTab({ cluster }: { cluster: Cluster }) {
  return (
    <div className="stack-lg">
      <HeatPanel clusterId={cluster.id} />
      <SlowLogPanel clusterId={cluster.id} />
      <KeyScanPanel cluster={cluster} />
    </div>
  );
}
