/** Wires the backup store, coordinator, service and routes (called from main.ts). */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { StorageRef } from '@strata/api';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { BackupStore } from './backup.store';
import { BackupCoordinator } from './backup-coordinator';
import { BackupService } from './backup.service';
import { backupRoutes } from './backup.routes';

export function createBackupModule(d: {
  pool: pg.Pool;
  log: Logger;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  notifyNode: (nodeId: string) => void;
  /** Where new backups go (the local directory: STRATA_HOME/backups). */
  storage: StorageRef;
}) {
  const store = new BackupStore(d.pool);
  const coordinator = new BackupCoordinator({ store, clusters: d.clusters, nodes: d.nodes, tasks: d.tasks, observed: d.observed, notifyNode: d.notifyNode, log: d.log.child({ module: 'backups' }) });
  const service = new BackupService({ store, clusters: d.clusters, nodes: d.nodes, coordinator, storage: d.storage });
  return {
    store,
    service,
    coordinator,
    router: backupRoutes({ store, service, clusters: d.clusters }),
    start: () => coordinator.start(),
    stop: () => coordinator.stop(),
  };
}
