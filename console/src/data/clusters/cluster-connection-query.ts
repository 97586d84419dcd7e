import { useQuery } from '@tanstack/react-query';
import type { Connection } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';
import { isClusterDeleted } from '../live/live-store';

/** GET /v1/clusters/{id}/connection — 409 until the cluster can accept clients. */
export function getClusterConnection(id: string, signal?: AbortSignal): Promise<Connection> {
  return apiCall(api.GET('/v1/clusters/{id}/connection', { params: { path: { id } }, signal }));
}

export function useClusterConnectionQuery(id: string, opts: { enabled: boolean }) {
  return useQuery({
    queryKey: clusterKeys.connection(id),
    queryFn: ({ signal }) => getClusterConnection(id, signal),
    enabled: opts.enabled && !isClusterDeleted(id),
    staleTime: 30_000,
  });
}
