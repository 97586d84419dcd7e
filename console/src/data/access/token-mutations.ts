import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, ApiTokenInfo, CreateTokenRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { accessKeys } from './keys';

/** POST /v1/tokens → 201 with the secret (shown once). */
export function createToken(body: CreateTokenRequest): Promise<ApiToken> {
  return apiCall(api.POST('/v1/tokens', { body }));
}

/** DELETE /v1/tokens/{id} → the revoked token. */
export function revokeToken(id: string): Promise<ApiTokenInfo> {
  return apiCall(api.DELETE('/v1/tokens/{id}', { params: { path: { id } } }));
}

export function useTokenCreateMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createToken, onSuccess: () => void qc.invalidateQueries({ queryKey: accessKeys.all }) });
}

export function useTokenRevokeMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeToken, onSuccess: () => void qc.invalidateQueries({ queryKey: accessKeys.all }) });
}
