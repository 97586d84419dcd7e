import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterUpdateAccepted, UpdateClusterDryRun, UpdateClusterRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** PATCH /v1/clusters/{id}?dryRun=true → 200 {dryRun, plan}: the plan, nothing changes. */
export function planClusterUpdate(id: string, body: UpdateClusterRequest): Promise<UpdateClusterDryRun> {
  // The dry run answers 200 with the plan; the same operation's 202 is a change.
  return apiCall(api.PATCH('/v1/clusters/{id}', { params: { path: { id }, query: { dryRun: 'true' } }, body })) as Promise<UpdateClusterDryRun>;
}

/** PATCH /v1/clusters/{id} → 202 {cluster, operation, plan} */
export function updateCluster(id: string, body: UpdateClusterRequest): Promise<ClusterUpdateAccepted> {
  return apiCall(api.PATCH('/v1/clusters/{id}', { params: { path: { id } }, body })) as Promise<ClusterUpdateAccepted>;
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
