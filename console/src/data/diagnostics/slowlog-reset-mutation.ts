import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SlowLogReset } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { diagnosticsKeys } from './keys';

/** POST /v1/clusters/{id}/diagnostics/slowlog/reset: SLOWLOG RESET on every instance. */
export function resetSlowLog(id: string): Promise<SlowLogReset> {
  return apiCall(api.POST('/v1/clusters/{id}/diagnostics/slowlog/reset', { params: { path: { id } } }));
}

export function useSlowLogResetMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => resetSlowLog(id), onSuccess: () => void qc.invalidateQueries({ queryKey: diagnosticsKeys.slowLog(id) }) });
}
