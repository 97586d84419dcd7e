import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DiskProfile, DiskProfileRequestInput } from '@strata/api';
import type { StrataComponents } from '@strata/api/client';
import { api, apiCall } from '../fetcher';
import { diskProfileKeys } from './keys';

/** openapi.json shows the request as parsed (fields with defaults required); the server fills them in. */
type DiskProfileBody = StrataComponents['schemas']['DiskProfileRequest'];

/** POST /v1/nodes/{id}/profiles → 202 {profile} */
export async function startDiskProfile(nodeId: string, request: DiskProfileRequestInput): Promise<DiskProfile> {
  const r = await apiCall(api.POST('/v1/nodes/{id}/profiles', { params: { path: { id: nodeId } }, body: request as DiskProfileBody }));
  return r.profile;
}

export function useDiskProfileStartMutation(nodeId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: DiskProfileRequestInput) => startDiskProfile(nodeId, request),
    onSuccess: (p) => {
      qc.setQueryData(diskProfileKeys.detail(p.id), p);
      void qc.invalidateQueries({ queryKey: diskProfileKeys.list(nodeId) });
    },
  });
}
