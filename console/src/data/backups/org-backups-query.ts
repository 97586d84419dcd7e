import { useQuery } from '@tanstack/react-query';
import type { BackupList, ListBackupsQuery } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { backupKeys } from './keys';

/** GET /v1/backups — the organization's backups (deleted clusters', imports and uploads too), newest first. */
export function getOrgBackups(filter: ListBackupsQuery, signal?: AbortSignal): Promise<BackupList> {
  return apiCall(api.GET('/v1/backups', { params: { query: filter }, signal }));
}

export function useOrgBackupsQuery(filter: ListBackupsQuery) {
  return useQuery({
    queryKey: backupKeys.org(filter),
    queryFn: ({ signal }) => getOrgBackups(filter, signal),
    refetchInterval: (q) => (q.state.data?.items.some((b) => b.status === 'running') ? FAST_POLL_MS : SLOW_POLL_MS),
  });
}
