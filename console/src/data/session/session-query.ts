import { useQuery } from '@tanstack/react-query';
import type { Session } from '@strata/api';
import { apiRequest, isApiError, setCsrfToken } from '../fetcher';
import { sessionKeys } from './keys';

/** GET /v1/session. Resolves to `null` when signed out (401). */
export async function getSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    const session = await apiRequest<Session>('GET', '/v1/session', { signal });
    setCsrfToken(session.csrfToken);
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
