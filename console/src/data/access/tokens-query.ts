import { useQuery } from '@tanstack/react-query';
import type { ApiTokenList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { accessKeys } from './keys';

/** GET /v1/tokens: an admin gets the organization's tokens, others their own. */
export function getTokens(signal?: AbortSignal): Promise<ApiTokenList> {
  return apiCall(api.GET('/v1/tokens', { signal }));
}

export function useTokensQuery() {
  return useQuery({ queryKey: accessKeys.tokens(), queryFn: ({ signal }) => getTokens(signal) });
}
