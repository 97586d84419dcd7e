import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall, setCsrfToken } from '../fetcher';
import { sessionKeys } from './keys';

/** DELETE /v1/session. */
export async function signOut(): Promise<void> {
  await apiCall(api.DELETE('/v1/session'));
  setCsrfToken(null);
}

export function useSignOutMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => {
      // Whatever the server said, forget everything this user could see.
      qc.clear();
      qc.setQueryData(sessionKeys.current(), null);
    },
  });
}
