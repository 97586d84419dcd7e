import { useQuery } from '@tanstack/react-query';
import type { ClusterEventList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id}/events — failovers, restarts, data loss, rebalancing, slot repair; newest first. */
export function getClusterEvents(id: string, signal?: AbortSignal): Promise<ClusterEventList> {
  return apiCall(api.GET('/v1/clusters/{id}/events', { params: { path: { id }, query: { limit: 50 } }, signal }));
}

export function useClusterEventsQuery(id: string, opts: { fast?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    queryKey: clusterKeys.events(id),
    queryFn: ({ signal }) => getClusterEvents(id, signal),
    enabled: (opts.enabled ?? true) && !isClusterDeleted(id),
    refetchInterval: (q) => (q.state.error?.status === 404 || isClusterDeleted(id) ? false : pollMs(opts.fast ? FAST_POLL_MS : SLOW_POLL_MS)),
  });
}
