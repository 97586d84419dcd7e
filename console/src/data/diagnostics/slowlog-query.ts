import { useQuery } from '@tanstack/react-query';
import type { SlowLog } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { diagnosticsKeys } from './keys';

/** GET /v1/clusters/{id}/diagnostics/slowlog: every instance's slow log, merged, newest first. */
export function getSlowLog(id: string, signal?: AbortSignal): Promise<SlowLog> {
  return apiCall(api.GET('/v1/clusters/{id}/diagnostics/slowlog', { params: { path: { id } }, signal }));
}

/** Read when the tab opens and on demand (each read asks every agent). */
export function useSlowLogQuery(id: string) {
  return useQuery({ queryKey: diagnosticsKeys.slowLog(id), queryFn: ({ signal }) => getSlowLog(id, signal), staleTime: 30_000, refetchOnWindowFocus: false });
}
