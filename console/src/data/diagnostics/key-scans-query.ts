import { useQuery } from '@tanstack/react-query';
import type { KeyScanList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS } from '../polling';
import { diagnosticsKeys } from './keys';

/** GET /v1/clusters/{id}/diagnostics/key-scans: the cluster's key scans, newest first. */
export function getKeyScans(id: string, signal?: AbortSignal): Promise<KeyScanList> {
  return apiCall(api.GET('/v1/clusters/{id}/diagnostics/key-scans', { params: { path: { id } }, signal }));
}

/** Polled while a scan runs. */
export function useKeyScansQuery(id: string) {
  return useQuery({
    queryKey: diagnosticsKeys.keyScans(id),
    queryFn: ({ signal }) => getKeyScans(id, signal),
    refetchInterval: (q) => (q.state.data?.items.some((s) => s.status === 'running') ? FAST_POLL_MS : false),
  });
}
