import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../fetcher';
import { nodeKeys } from './keys';

export interface DrainResult {
  id: string;
  name: string;
  draining: boolean;
}

/** POST /v1/nodes/{id}/drain or /undrain (platform admins). */
export function setNodeDraining(id: string, draining: boolean): Promise<DrainResult> {
  const params = { path: { id } };
  return apiCall(draining ? api.POST('/v1/nodes/{id}/drain', { params }) : api.POST('/v1/nodes/{id}/undrain', { params }));
}

export function useNodeDrainMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draining }: { id: string; draining: boolean }) => setNodeDraining(id, draining),
    onSuccess: () => void qc.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}
