import { useQuery } from '@tanstack/react-query';
import type { BackupScheduleResponse } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { backupKeys } from './keys';

/** GET /v1/clusters/{id}/backup-schedule */
export function getBackupSchedule(clusterId: string, signal?: AbortSignal): Promise<BackupScheduleResponse> {
  return apiCall(api.GET('/v1/clusters/{id}/backup-schedule', { params: { path: { id: clusterId } }, signal }));
}

export function useBackupScheduleQuery(clusterId: string) {
  return useQuery({ queryKey: backupKeys.schedule(clusterId), queryFn: ({ signal }) => getBackupSchedule(clusterId, signal) });
}
