import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BackupResponse } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { backupKeys } from './keys';

/** POST /v1/clusters/{id}/backups → 202 {backup} */
export function startBackup(clusterId: string, consistent: boolean): Promise<BackupResponse> {
  return apiCall(api.POST('/v1/clusters/{id}/backups', { params: { path: { id: clusterId } }, body: { consistent } }));
}

export function useBackupStartMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (consistent: boolean) => startBackup(clusterId, consistent),
    onSettled: () => void qc.invalidateQueries({ queryKey: backupKeys.list(clusterId) }),
  });
}
