import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DatabaseUserWithPassword } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { databaseUserKeys } from './keys';

/** POST /v1/clusters/{id}/users/{name}/rotate → the new password (shown once); the old one works for the grace period. */
export function rotateDatabaseUser(clusterId: string, name: string, graceSeconds?: number): Promise<DatabaseUserWithPassword> {
  return apiCall(api.POST('/v1/clusters/{id}/users/{name}/rotate', { params: { path: { id: clusterId, name } }, body: graceSeconds === undefined ? {} : { graceSeconds } }));
}

export function useDatabaseUserRotateMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; graceSeconds?: number }) => rotateDatabaseUser(clusterId, v.name, v.graceSeconds),
    onSuccess: () => void qc.invalidateQueries({ queryKey: databaseUserKeys.list(clusterId) }),
  });
}
