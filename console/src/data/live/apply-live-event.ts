import type { QueryClient } from '@tanstack/react-query';
import type { Cluster, ClusterList, LiveEvent, OperationList } from '@strata/api';
import { clusterKeys } from '../clusters/keys';
import { markClusterDeleted } from './live-store';

const byNewest = (a: Cluster, b: Cluster) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/**
 * Applies one event of GET /v1/events/stream to the react-query cache: the
 * list, the cluster page and every other tab read the same entries, so they
 * all change at once.
 */
export function applyLiveEvent(qc: QueryClient, e: LiveEvent, opts: { reconnected: boolean }): void {
  switch (e.type) {
    case 'cluster': {
      const c = e.cluster;
      qc.setQueryData<Cluster>(clusterKeys.detail(c.id), c);
      qc.setQueryData<ClusterList>(clusterKeys.list(), (list) => {
        if (!list) return list;
        const items = list.items.some((x) => x.id === c.id) ? list.items.map((x) => (x.id === c.id ? c : x)) : [...list.items, c].sort(byNewest);
        return { ...list, items };
      });
      if (c.status.phase === 'deleting') {
        // Connection details of a cluster being deleted are gone: never ask for them again.
        void qc.cancelQueries({ queryKey: clusterKeys.connection(c.id) });
        qc.removeQueries({ queryKey: clusterKeys.connection(c.id) });
      } else {
        // Health, roles and the reason come with the phase: re-read the instances once.
        void qc.invalidateQueries({ queryKey: clusterKeys.topology(c.id) });
      }
      return;
    }
    case 'cluster-deleted': {
      markClusterDeleted(e.clusterId);
      void qc.cancelQueries({ queryKey: clusterKeys.detail(e.clusterId) });
      qc.removeQueries({ queryKey: clusterKeys.detail(e.clusterId) });
      qc.setQueryData<ClusterList>(clusterKeys.list(), (list) => (list ? { ...list, items: list.items.filter((x) => x.id !== e.clusterId) } : list));
      return;
    }
    case 'operation': {
      const op = e.operation;
      qc.setQueryData<OperationList>(clusterKeys.operations(op.clusterId), (list) => {
        if (!list) return list;
        const items = list.items.some((x) => x.id === op.id) ? list.items.map((x) => (x.id === op.id ? op : x)) : [op, ...list.items];
        return { ...list, items };
      });
      return;
    }
    case 'cluster-activity':
      void qc.invalidateQueries({ queryKey: clusterKeys.events(e.clusterId) });
      return;
    case 'topology':
      void qc.invalidateQueries({ queryKey: clusterKeys.topology(e.clusterId) });
      return;
    case 'resync':
      // The first resync of a page load only says the stream is live; after a drop, re-read everything.
      if (opts.reconnected) void qc.invalidateQueries({ queryKey: clusterKeys.all });
      return;
  }
}
