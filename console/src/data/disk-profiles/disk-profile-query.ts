import { useQuery } from '@tanstack/react-query';
import type { DiskProfile } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS } from '../polling';
import { diskProfileKeys } from './keys';

/** GET /v1/profiles/{id} */
export function getDiskProfile(id: string, signal?: AbortSignal): Promise<DiskProfile> {
  return apiCall(api.GET('/v1/profiles/{id}', { params: { path: { id } }, signal }));
}

/** Polled slowly while running (the stream carries the live progress). */
export function useDiskProfileQuery(id: string | undefined) {
  return useQuery({
    queryKey: diskProfileKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getDiskProfile(id!, signal),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? FAST_POLL_MS * 2 : false),
  });
}
