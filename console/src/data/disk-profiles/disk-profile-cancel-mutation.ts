import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DiskProfile } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { diskProfileKeys } from './keys';

/** POST /v1/profiles/{id}/cancel */
export function cancelDiskProfile(id: string): Promise<DiskProfile> {
  return apiCall(api.POST('/v1/profiles/{id}/cancel', { params: { path: { id } } }));
}

export function useDiskProfileCancelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelDiskProfile(id),
    onSuccess: (p) => void qc.invalidateQueries({ queryKey: diskProfileKeys.detail(p.id) }),
  });
}
