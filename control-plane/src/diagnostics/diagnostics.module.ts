/** Wires the key-scan store, the diagnostics service and its routes (called from main.ts). */
import type pg from 'pg';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { KeyScanStore } from './key-scan.store';
import { DiagnosticsService } from './diagnostics.service';
import { diagnosticsRoutes } from './diagnostics.routes';
import type { ShardLoad } from './heat';

export function createDiagnosticsModule(d: {
  pool: pg.Pool;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  notifyNode: (nodeId: string) => void;
  shardLoad: (clusterId: string, windowSec: number) => { at: number | null; shards: ShardLoad[] };
}) {
  const scans = new KeyScanStore(d.pool);
  const service = new DiagnosticsService({ ...d, scans });
  return { service, router: diagnosticsRoutes({ service }) };
}
