import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeyScan, KeyScanRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { diagnosticsKeys } from './keys';

/** POST /v1/clusters/{id}/diagnostics/key-scans → 202 the scan (big keys; hot keys under an LFU policy). */
export function startKeyScan(id: string, body: KeyScanRequest): Promise<KeyScan> {
  return apiCall(api.POST('/v1/clusters/{id}/diagnostics/key-scans', { params: { path: { id } }, body }));
}

export function useKeyScanStartMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (body: KeyScanRequest) => startKeyScan(id, body), onSuccess: () => void qc.invalidateQueries({ queryKey: diagnosticsKeys.keyScans(id) }) });
}
