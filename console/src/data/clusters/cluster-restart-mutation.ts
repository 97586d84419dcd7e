import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** POST /v1/clusters/{id}/restart → 202 {cluster, operation} (a restart-cluster operation). */
export function restartCluster(id: string): Promise<ClusterWithOperation> {
  return apiCall(api.POST('/v1/clusters/{id}/restart', { params: { path: { id } } }));
}

export function useClusterRestartMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => restartCluster(id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.detail(id) }),
  });
}
