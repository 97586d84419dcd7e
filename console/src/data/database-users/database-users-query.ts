import { useQuery } from '@tanstack/react-query';
import type { DatabaseUserList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { databaseUserKeys } from './keys';

/** GET /v1/clusters/{id}/users: never with passwords. */
export function getDatabaseUsers(clusterId: string, signal?: AbortSignal): Promise<DatabaseUserList> {
  return apiCall(api.GET('/v1/clusters/{id}/users', { params: { path: { id: clusterId } }, signal }));
}

/** Polls every 2 s while a change is not yet on every instance, every 30 s while a rotation's grace period runs. */
export function useDatabaseUsersQuery(clusterId: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: databaseUserKeys.list(clusterId),
    queryFn: ({ signal }) => getDatabaseUsers(clusterId, signal),
    enabled: opts.enabled ?? true,
    refetchInterval: (q) => {
      const items = q.state.data?.items ?? [];
      return items.some((u) => !u.applied) ? 2000 : items.some((u) => u.previousPasswordExpiresAt) ? 30_000 : false;
    },
  });
}
