import { useQuery } from '@tanstack/react-query';
import type { BackupList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { backupKeys } from './keys';

/** GET /v1/clusters/{id}/backups — newest first. */
export function getBackups(clusterId: string, signal?: AbortSignal): Promise<BackupList> {
  return apiCall(api.GET('/v1/clusters/{id}/backups', { params: { path: { id: clusterId } }, signal }));
}

export function useBackupsQuery(clusterId: string) {
  return useQuery({
    queryKey: backupKeys.list(clusterId),
    queryFn: ({ signal }) => getBackups(clusterId, signal),
    refetchInterval: (q) => (q.state.data?.items.some((b) => b.status === 'running') ? FAST_POLL_MS : SLOW_POLL_MS),
  });
}
