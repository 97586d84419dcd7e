import { useQuery } from '@tanstack/react-query';
import type { Cluster } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS, isTransitional } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id} */
export function getCluster(id: string, signal?: AbortSignal): Promise<Cluster> {
  return apiCall(api.GET('/v1/clusters/{id}', { params: { path: { id } }, signal }));
}

export function useClusterQuery(id: string) {
  return useQuery({
    queryKey: clusterKeys.detail(id),
    queryFn: ({ signal }) => getCluster(id, signal),
    // The live stream said it is gone: asking again would only fetch a 404.
    enabled: !isClusterDeleted(id),
    refetchInterval: (q) => {
      if (q.state.error?.status === 404 || isClusterDeleted(id)) return false;
      const phase = q.state.data?.status.phase;
      return pollMs(phase && isTransitional(phase) ? FAST_POLL_MS : SLOW_POLL_MS);
    },
  });
}
