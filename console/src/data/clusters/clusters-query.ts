import { useQuery } from '@tanstack/react-query';
import type { ClusterList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS, isTransitional } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters, without the clusters the live stream already said are gone (a read started before it said so). */
export async function getClusters(signal?: AbortSignal): Promise<ClusterList> {
  const list = await apiCall(api.GET('/v1/clusters', { signal }));
  return { ...list, items: list.items.filter((c) => !isClusterDeleted(c.id)) };
}

export function useClustersQuery() {
  return useQuery({
    queryKey: clusterKeys.list(),
    queryFn: ({ signal }) => getClusters(signal),
    refetchInterval: (q) =>
      pollMs(q.state.data?.items.some((c) => isTransitional(c.status.phase)) ? FAST_POLL_MS : SLOW_POLL_MS),
  });
}
