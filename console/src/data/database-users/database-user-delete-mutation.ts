import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../fetcher';
import { databaseUserKeys } from './keys';

/** DELETE /v1/clusters/{id}/users/{name} → 204; the user's open connections are closed. */
export function deleteDatabaseUser(clusterId: string, name: string): Promise<void> {
  return apiCall(api.DELETE('/v1/clusters/{id}/users/{name}', { params: { path: { id: clusterId, name } } })) as Promise<void>;
}

export function useDatabaseUserDeleteMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteDatabaseUser(clusterId, name),
    onSuccess: () => void qc.invalidateQueries({ queryKey: databaseUserKeys.list(clusterId) }),
  });
}
