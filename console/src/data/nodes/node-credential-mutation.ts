import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../fetcher';
import { nodeKeys } from './keys';

/** POST /v1/nodes/{id}/revoke-credential (platform admins): the agent's requests are refused from then on. */
export function revokeNodeCredential(id: string): Promise<{ id: string; name: string; credentialRevokedAt: string }> {
  return apiCall(api.POST('/v1/nodes/{id}/revoke-credential', { params: { path: { id } } }));
}

export function useNodeCredentialRevokeMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeNodeCredential, onSuccess: () => void qc.invalidateQueries({ queryKey: nodeKeys.all }) });
}
