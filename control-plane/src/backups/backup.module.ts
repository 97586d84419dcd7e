/** Wires the backup stores, coordinator, scheduler, service and routes (called from main.ts). */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { StorageRef } from '@strata/api';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import type { EventStore } from '../stores/event.store';
import { BackupStore } from './backup.store';
import { BackupCoordinator } from './backup-coordinator';
import { BackupService } from './backup.service';
import { BackupUploads } from './backup-upload';
import { backupRoutes } from './backup.routes';
import { BackupStorageStore } from './backup-storage.store';
import { BackupScheduleStore } from './backup-schedule.store';
import { BackupScheduler } from './backup-scheduler';
import { heardNodeStatus, type LivenessTimings } from '../observed/node-liveness';

export function createBackupModule(d: {
  pool: pg.Pool;
  log: Logger;
  box: SecretBox;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  notifyNode: (nodeId: string) => void;
  /** Backup events on the cluster's Activity. */
  events?: Pick<EventStore, 'record'>;
  /** Where backups go when the organization set no storage (the local directory: STRATA_HOME/backups). */
  localStorage: StorageRef;
  /** How often the scheduler looks for due backups and expired ones. */
  schedulerIntervalMs?: number;
  /** The largest uploaded RDB file (bytes). */
  uploadMaxBytes?: number;
  /** An upload that sends nothing for this long is ended (408). */
  uploadIdleTimeoutMs?: number;
  /** When a node counts as down: a backup task it holds is then handed to another. Absent: tasks wait for their node. */
  liveness?: LivenessTimings;
  now?: () => Date;
}) {
  const log = d.log.child({ module: 'backups' });
  const store = new BackupStore(d.pool);
  const storage = new BackupStorageStore({ pool: d.pool, box: d.box, local: d.localStorage });
  const schedules = new BackupScheduleStore(d.pool);
  const coordinator = new BackupCoordinator({
    store, storage, clusters: d.clusters, nodes: d.nodes, tasks: d.tasks, observed: d.observed, notifyNode: d.notifyNode, log, events: d.events,
    keepDays: async (clusterId) => (await schedules.get(clusterId))?.schedule.keepDays ?? null,
    nodeDown: d.liveness && ((nodeId) => heardNodeStatus(d.observed, nodeId, d.liveness!) === 'down'),
  });
  const service = new BackupService({ store, clusters: d.clusters, nodes: d.nodes, coordinator, storage, box: d.box });
  const uploads = new BackupUploads({ store, storage, coordinator, maxBytes: d.uploadMaxBytes ?? 10 * 1024 ** 3, idleTimeoutMs: d.uploadIdleTimeoutMs });
  const now = d.now ?? (() => new Date());
  const scheduler = new BackupScheduler({ schedules, store, service, log, now, intervalMs: d.schedulerIntervalMs });
  return {
    store,
    service,
    coordinator,
    scheduler,
    storage,
    router: backupRoutes({ store, service, uploads, clusters: d.clusters, storage, schedules, now, uploadIdleTimeoutMs: d.uploadIdleTimeoutMs ?? 60_000 }),
    taskShouldStop: (taskId: string) => store.taskShouldStop(taskId),
    start: () => { coordinator.start(); scheduler.start(); },
    stop: () => { coordinator.stop(); scheduler.stop(); },
  };
}
