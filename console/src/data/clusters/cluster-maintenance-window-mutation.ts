import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceWindow, UpdateClusterApplied } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** PATCH /v1/clusters/{id} with maintenanceWindow alone → 200 {cluster, operation: null}: applied at once. */
export function setMaintenanceWindow(id: string, maintenanceWindow: MaintenanceWindow | null): Promise<UpdateClusterApplied> {
  return apiCall(api.PATCH('/v1/clusters/{id}', { params: { path: { id } }, body: { maintenanceWindow } })) as Promise<UpdateClusterApplied>;
}

export function useMaintenanceWindowMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (w: MaintenanceWindow | null) => setMaintenanceWindow(id, w),
    onSuccess: ({ cluster }) => {
      qc.setQueryData(clusterKeys.detail(cluster.id), cluster);
      void qc.invalidateQueries({ queryKey: clusterKeys.detail(cluster.id) });
      void qc.invalidateQueries({ queryKey: clusterKeys.operations(cluster.id) });
    },
  });
}
