import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BackupSchedule, BackupScheduleResponse } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { backupKeys } from './keys';

/** PUT /v1/clusters/{id}/backup-schedule → 200 {schedule, nextAt} */
export function setBackupSchedule(clusterId: string, schedule: BackupSchedule): Promise<BackupScheduleResponse> {
  return apiCall(api.PUT('/v1/clusters/{id}/backup-schedule', { params: { path: { id: clusterId } }, body: schedule }));
}

/** DELETE /v1/clusters/{id}/backup-schedule → 204 */
export function deleteBackupSchedule(clusterId: string): Promise<void> {
  return apiCall(api.DELETE('/v1/clusters/{id}/backup-schedule', { params: { path: { id: clusterId } } })) as Promise<void>;
}

export function useBackupScheduleMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (schedule: BackupSchedule | null) => (schedule ? setBackupSchedule(clusterId, schedule) : deleteBackupSchedule(clusterId).then(() => ({ schedule: null, nextAt: null }))),
    onSuccess: (r) => {
      qc.setQueryData(backupKeys.schedule(clusterId), r);
      void qc.invalidateQueries({ queryKey: backupKeys.list(clusterId) });
    },
  });
}
