import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation, RotateCaRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** POST /v1/clusters/{id}/tls/rotate-ca → 202 {cluster, operation} (a rotate-ca operation). */
export function rotateClusterCa(id: string, body: RotateCaRequest): Promise<ClusterWithOperation> {
  return apiCall(api.POST('/v1/clusters/{id}/tls/rotate-ca', { params: { path: { id } }, body }));
}

export function useClusterRotateCaMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RotateCaRequest) => rotateClusterCa(id, body),
    // The cluster, its operations and its connection details (the CA file now holds both CAs).
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.detail(id) }),
  });
}
