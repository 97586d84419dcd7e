import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../fetcher';
import { nodeKeys } from './keys';

export interface DrainResult {
  id: string;
  name: string;
  draining: boolean;
}

/** POST /v1/nodes/{id}/drain or /undrain (platform admins). */
export function setNodeDraining(id: string, draining: boolean): Promise<DrainResult> {
  return apiRequest<DrainResult>('POST', `/v1/nodes/${encodeURIComponent(id)}/${draining ? 'drain' : 'undrain'}`);
}

export function useNodeDrainMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draining }: { id: string; draining: boolean }) => setNodeDraining(id, draining),
    onSuccess: () => void qc.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}
