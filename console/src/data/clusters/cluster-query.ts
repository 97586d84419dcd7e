import { useQuery } from '@tanstack/react-query';
import type { Cluster } from '@strata/api';
import { apiRequest } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS, isTransitional } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id} */
export function getCluster(id: string, signal?: AbortSignal): Promise<Cluster> {
  return apiRequest<Cluster>('GET', `/v1/clusters/${encodeURIComponent(id)}`, { signal });
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
