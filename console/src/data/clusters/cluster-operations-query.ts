import { useQuery } from '@tanstack/react-query';
import type { OperationList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS, isOperationActive } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id}/operations — newest first. */
export function getClusterOperations(id: string, signal?: AbortSignal): Promise<OperationList> {
  return apiCall(api.GET('/v1/clusters/{id}/operations', { params: { path: { id } }, signal }));
}

export function useClusterOperationsQuery(id: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: clusterKeys.operations(id),
    queryFn: ({ signal }) => getClusterOperations(id, signal),
    enabled: (opts.enabled ?? true) && !isClusterDeleted(id),
    refetchInterval: (q) => {
      if (q.state.error?.status === 404 || isClusterDeleted(id)) return false;
      return pollMs(q.state.data?.items.some((o) => isOperationActive(o.state)) ? FAST_POLL_MS : SLOW_POLL_MS);
    },
  });
}
