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
  applyToCache(qc, e, opts);
  refetchInFlight(qc, e);
}

/**
 * A read that was already on its way when the event came may answer with the
 * state from before it and overwrite the cache (the list fetched on arriving
 * from a delete kept showing the cluster as Deleting after it was gone, until
 * the 30 s fallback poll). Such a read is followed by another once it lands,
 * which answers after the change. (React Query does not restart a first read:
 * it hands back the one in flight.)
 */
function refetchInFlight(qc: QueryClient, e: LiveEvent): void {
  const keys =
    e.type === 'cluster' ? [clusterKeys.list(), clusterKeys.detail(e.cluster.id)]
    : e.type === 'cluster-deleted' ? [clusterKeys.list()]
    : e.type === 'operation' ? [clusterKeys.operations(e.operation.clusterId)]
    : [];
  for (const queryKey of keys) {
    const query = qc.getQueryCache().find({ queryKey, exact: true });
    if (query?.state.fetchStatus !== 'fetching') continue;
    const unsubscribe = qc.getQueryCache().subscribe((ev) => {
      if (ev.query !== query || query.state.fetchStatus === 'fetching') return;
      unsubscribe();
      void qc.invalidateQueries({ queryKey, exact: true });
    });
  }
}

function applyToCache(qc: QueryClient, e: LiveEvent, opts: { reconnected: boolean }): void {
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
        // Health, roles and the reason come with the phase: re-read the instances, and the seeds that name the primaries.
        void qc.invalidateQueries({ queryKey: clusterKeys.topology(c.id) });
        void qc.invalidateQueries({ queryKey: clusterKeys.connection(c.id) });
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
      // Roles, instances and slots changed: the topology, and the connection's seeds (the primaries) and snippets with it.
      void qc.invalidateQueries({ queryKey: clusterKeys.topology(e.clusterId) });
      void qc.invalidateQueries({ queryKey: clusterKeys.connection(e.clusterId) });
      return;
    case 'resync':
      // The stream is subscribed from here on. A read answered (or still on its way) before that may miss a change
      // committed between it and the subscription, on a page load as after a drop: re-read once, then rely on events.
      // Invalidating a read in flight cancels and restarts it, so its answer comes after the subscription.
      void opts;
      void qc.invalidateQueries({ queryKey: clusterKeys.all });
      return;
  }
}
