import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDatabaseUserRequest, DatabaseUserWithPassword } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { databaseUserKeys } from './keys';

/** POST /v1/clusters/{id}/users → 201 with the password (shown once). */
export function createDatabaseUser(clusterId: string, body: CreateDatabaseUserRequest): Promise<DatabaseUserWithPassword> {
  return apiCall(api.POST('/v1/clusters/{id}/users', { params: { path: { id: clusterId } }, body }));
}

export function useDatabaseUserCreateMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDatabaseUserRequest) => createDatabaseUser(clusterId, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: databaseUserKeys.list(clusterId) }),
  });
}
