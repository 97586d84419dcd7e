import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, Session } from '@strata/api';
import { api, apiCall, setCsrfToken } from '../fetcher';
import { sessionKeys } from './keys';

/** POST /v1/session: sets the httpOnly session cookie, returns the CSRF token. */
export async function signIn(body: LoginRequest): Promise<Session> {
  const session = await apiCall(api.POST('/v1/session', { body }));
  setCsrfToken(session.csrfToken);
  return session;
}

export function useSignInMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.all[0] });
      qc.setQueryData(sessionKeys.current(), session);
    },
  });
}
