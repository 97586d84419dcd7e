import { useQuery } from '@tanstack/react-query';
import type { Heat } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { SLOW_POLL_MS } from '../polling';
import { diagnosticsKeys } from './keys';

/** GET /v1/clusters/{id}/diagnostics/heat: ops/s and memory per shard over the last 10 s. */
export function getHeat(id: string, signal?: AbortSignal): Promise<Heat> {
  return apiCall(api.GET('/v1/clusters/{id}/diagnostics/heat', { params: { path: { id } }, signal }));
}

export function useHeatQuery(id: string) {
  return useQuery({ queryKey: diagnosticsKeys.heat(id), queryFn: ({ signal }) => getHeat(id, signal), refetchInterval: SLOW_POLL_MS });
}
