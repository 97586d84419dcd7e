import { useQuery } from '@tanstack/react-query';
import type { NodeList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { SLOW_POLL_MS } from '../polling';
import { nodeKeys } from './keys';

/** GET /v1/nodes */
export function getNodes(signal?: AbortSignal): Promise<NodeList> {
  return apiCall(api.GET('/v1/nodes', { signal }));
}

export function useNodesQuery(opts: { refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: nodeKeys.list(),
    queryFn: ({ signal }) => getNodes(signal),
    refetchInterval: opts.refetchInterval ?? SLOW_POLL_MS,
  });
}
