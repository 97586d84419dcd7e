import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterUpdateAccepted, UpdateClusterDryRun, UpdateClusterRequest } from '@strata/api';
import { apiRequest } from '../fetcher';
import { clusterKeys } from './keys';

/** PATCH /v1/clusters/{id}?dryRun=true → 200 {dryRun, plan}: the plan, nothing changes. */
export function planClusterUpdate(id: string, body: UpdateClusterRequest): Promise<UpdateClusterDryRun> {
  return apiRequest<UpdateClusterDryRun>('PATCH', `/v1/clusters/${encodeURIComponent(id)}?dryRun=true`, { body });
}

/** PATCH /v1/clusters/{id} → 202 {cluster, operation, plan} */
export function updateCluster(id: string, body: UpdateClusterRequest): Promise<ClusterUpdateAccepted> {
  return apiRequest<ClusterUpdateAccepted>('PATCH', `/v1/clusters/${encodeURIComponent(id)}`, { body });
}

export function useClusterPlanMutation(id: string) {
  return useMutation({ mutationFn: (body: UpdateClusterRequest) => planClusterUpdate(id, body) });
}

export function useClusterUpdateMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateClusterRequest) => updateCluster(id, body),
    onSuccess: ({ cluster }) => {
      qc.setQueryData(clusterKeys.detail(cluster.id), cluster);
      void qc.invalidateQueries({ queryKey: clusterKeys.detail(cluster.id) });
    },
  });
}
