import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation, CreateClusterRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** POST /v1/clusters → 202 {cluster, operation} */
export function createCluster(body: CreateClusterRequest): Promise<ClusterWithOperation> {
  return apiCall(api.POST('/v1/clusters', { body }));
}

export function useClusterCreateMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createCluster,
    onSuccess: ({ cluster, operation }) => {
      qc.setQueryData(clusterKeys.detail(cluster.id), cluster);
      qc.setQueryData(clusterKeys.operations(cluster.id), { items: [operation] });
      void qc.invalidateQueries({ queryKey: clusterKeys.list() });
    },
  });
}
