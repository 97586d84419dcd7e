import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation, RestartClusterRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** POST /v1/clusters/{id}/restart → 202 {cluster, operation} (a restart-cluster operation). */
export function restartCluster(id: string, body: RestartClusterRequest = {}): Promise<ClusterWithOperation> {
  return apiCall(api.POST('/v1/clusters/{id}/restart', { params: { path: { id } }, body }));
}

export function useClusterRestartMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RestartClusterRequest = {}) => restartCluster(id, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.detail(id) }),
  });
}
