import { useQuery } from '@tanstack/react-query';
import type { BackupResponse } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { backupKeys } from './keys';

/** GET /v1/backups/{id} */
export function getBackup(backupId: string, signal?: AbortSignal): Promise<BackupResponse> {
  return apiCall(api.GET('/v1/backups/{id}', { params: { path: { id: backupId } }, signal }));
}

/** One backup (the restore wizard's source); disabled without an id. */
export function useBackupQuery(backupId: string | null) {
  return useQuery({
    queryKey: backupKeys.detail(backupId ?? ''),
    queryFn: ({ signal }) => getBackup(backupId!, signal),
    enabled: !!backupId,
    retry: false,
  });
}
