import { useQuery } from '@tanstack/react-query';
import type { Topology } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id}/topology */
export function getClusterTopology(id: string, signal?: AbortSignal): Promise<Topology> {
  return apiCall(api.GET('/v1/clusters/{id}/topology', { params: { path: { id } }, signal }));
}

export function useClusterTopologyQuery(id: string, opts: { fast: boolean }) {
  return useQuery({
    queryKey: clusterKeys.topology(id),
    queryFn: ({ signal }) => getClusterTopology(id, signal),
    enabled: !isClusterDeleted(id),
    // Instance health comes from agents' reports: while a cluster changes it is polled fast even with the stream live.
    refetchInterval: (q) => (q.state.error?.status === 404 || isClusterDeleted(id) ? false : opts.fast ? FAST_POLL_MS : pollMs(SLOW_POLL_MS)),
  });
}
