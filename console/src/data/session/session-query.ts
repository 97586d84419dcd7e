import { useQuery } from '@tanstack/react-query';
import type { Session } from '@strata/api';
import { api, apiCall, isApiError, setCsrfToken } from '../fetcher';
import { sessionKeys } from './keys';

/**
 * GET /v1/session?optional=true: `null` when signed out, answered with 200 so
 * a signed-out page load logs no failed request.
 */
export async function getSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    const session = await apiCall(api.GET('/v1/session', { params: { query: { optional: 'true' } }, signal }));
    setCsrfToken(session?.csrfToken ?? null);
    return session;
  } catch (e) {
    if (isApiError(e) && e.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw e;
  }
}

export function useSessionQuery() {
  return useQuery({
    queryKey: sessionKeys.current(),
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
}
