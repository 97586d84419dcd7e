import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Operation } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

export type OperationControl = 'pause' | 'resume' | 'cancel';

/** POST /v1/operations/{id}/pause|resume|cancel → the operation */
export function controlOperation(id: string, action: OperationControl): Promise<Operation> {
  const params = { path: { id } };
  return apiCall(action === 'pause' ? api.POST('/v1/operations/{id}/pause', { params })
    : action === 'resume' ? api.POST('/v1/operations/{id}/resume', { params }) : api.POST('/v1/operations/{id}/cancel', { params }));
}

export function useOperationControlMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: OperationControl }) => controlOperation(id, action),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.operations(clusterId) }),
  });
}
