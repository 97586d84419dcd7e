import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation } from '@strata/api';
import { apiRequest } from '../fetcher';
import { clusterKeys } from './keys';

/** DELETE /v1/clusters/{id} → 202 {cluster, operation} */
export function deleteCluster(id: string): Promise<ClusterWithOperation> {
  return apiRequest<ClusterWithOperation>('DELETE', `/v1/clusters/${encodeURIComponent(id)}`);
}

export function useClusterDeleteMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteCluster,
    onSuccess: ({ cluster }) => {
      qc.setQueryData(clusterKeys.detail(cluster.id), cluster);
      void qc.invalidateQueries({ queryKey: clusterKeys.all });
    },
  });
}
