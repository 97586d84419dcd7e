/** Wires the disk profile store, service and routes (called from main.ts). */
import type pg from 'pg';
import type { ClusterCurrentMetrics, NodeCurrentMetrics } from '@strata/api';
import { DiskProfileStore } from '../stores/disk-profile.store';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { DiskProfileService } from './disk-profile.service';
import { agentDiskProfileRoutes, diskProfileRoutes } from './disk-profile.routes';
import type { EventStreams } from '../http/event-streams';

export function createDiskProfileModule(d: {
  pool: pg.Pool;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  /** The metrics hot window's newest second. */
  current: { clusters: (ids: string[]) => ClusterCurrentMetrics[]; nodes: (ids: string[]) => NodeCurrentMetrics[] };
  notifyNode: (nodeId: string) => void;
  eventStreams: EventStreams;
}) {
  const profiles = new DiskProfileStore(d.pool);
  const service = new DiskProfileService({
    profiles, nodes: d.nodes, tasks: d.tasks, notifyNode: d.notifyNode,
    isSilent: (id) => d.observed.isSilent(id),
    freeBytes: (id) => {
      const n = d.current.nodes([id])[0];
      return n?.diskTotal != null && n.diskUsed != null ? n.diskTotal - n.diskUsed : null;
    },
    clusterActivity: async (nodeId) => {
      const onNode = (await d.clusters.allInstances()).filter((i) => i.nodeId === nodeId);
      const names = new Map(onNode.map((i) => [i.clusterId, i.clusterName]));
      return d.current.clusters([...names.keys()]).map((m) => ({
        clusterId: m.clusterId, clusterName: names.get(m.clusterId) ?? '', opsPerSec: m.ops, latencyP99Us: m.latencyP99,
      }));
    },
  });
  return {
    service,
    app: { router: diskProfileRoutes({ service, profiles, nodes: d.nodes, eventStreams: d.eventStreams }), agentRouter: agentDiskProfileRoutes({ service, profiles }) },
    start: () => service.watch(),
    stop: () => service.unwatch(),
  };
}
