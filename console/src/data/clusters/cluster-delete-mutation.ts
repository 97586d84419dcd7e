import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterList, ClusterWithOperation, OperationList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** DELETE /v1/clusters/{id} → 202 {cluster, operation} */
export function deleteCluster(id: string): Promise<ClusterWithOperation> {
  return apiCall(api.DELETE('/v1/clusters/{id}', { params: { path: { id } } }));
}

export function useClusterDeleteMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteCluster,
    onSuccess: ({ cluster, operation }) => {
      // Its connection details are gone: drop them first, so nothing asks for them (a 409) again.
      void qc.cancelQueries({ queryKey: clusterKeys.connection(cluster.id) });
      qc.removeQueries({ queryKey: clusterKeys.connection(cluster.id) });
      qc.setQueryData(clusterKeys.detail(cluster.id), cluster);
      qc.setQueryData<OperationList>(clusterKeys.operations(cluster.id), (list) => (list ? { items: [operation, ...list.items.filter((o) => o.id !== operation.id)] } : list));
      qc.setQueryData<ClusterList>(clusterKeys.list(), (list) => (list ? { items: list.items.map((c) => (c.id === cluster.id ? cluster : c)) } : list));
    },
  });
}
