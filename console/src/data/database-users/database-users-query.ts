import { useQuery } from '@tanstack/react-query';
import type { DatabaseUserList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { databaseUserKeys } from './keys';

/** GET /v1/clusters/{id}/users: never with passwords. */
export function getDatabaseUsers(clusterId: string, signal?: AbortSignal): Promise<DatabaseUserList> {
  return apiCall(api.GET('/v1/clusters/{id}/users', { params: { path: { id: clusterId } }, signal }));
}

/** Polls while a change is not yet on every instance. */
export function useDatabaseUsersQuery(clusterId: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: databaseUserKeys.list(clusterId),
    queryFn: ({ signal }) => getDatabaseUsers(clusterId, signal),
    enabled: opts.enabled ?? true,
    refetchInterval: (q) => (q.state.data?.items.some((u) => !u.applied || u.previousPasswordExpiresAt) ? 2000 : false),
  });
}
