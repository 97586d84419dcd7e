import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Operation } from '@strata/api';
import { apiRequest } from '../fetcher';
import { clusterKeys } from './keys';

export type OperationControl = 'pause' | 'resume' | 'cancel';

/** POST /v1/operations/{id}/pause|resume|cancel → the operation */
export function controlOperation(id: string, action: OperationControl): Promise<Operation> {
  return apiRequest<Operation>('POST', `/v1/operations/${encodeURIComponent(id)}/${action}`);
}

export function useOperationControlMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: OperationControl }) => controlOperation(id, action),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.operations(clusterId) }),
  });
}
