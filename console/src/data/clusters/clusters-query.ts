import { useQuery } from '@tanstack/react-query';
import type { ClusterList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS, isTransitional } from '../polling';
import { clusterKeys } from './keys';
import { pollMs } from '../live/live-store';

/** GET /v1/clusters */
export function getClusters(signal?: AbortSignal): Promise<ClusterList> {
  return apiCall(api.GET('/v1/clusters', { signal }));
}

export function useClustersQuery() {
  return useQuery({
    queryKey: clusterKeys.list(),
    queryFn: ({ signal }) => getClusters(signal),
    refetchInterval: (q) =>
      pollMs(q.state.data?.items.some((c) => isTransitional(c.status.phase)) ? FAST_POLL_MS : SLOW_POLL_MS),
  });
}
