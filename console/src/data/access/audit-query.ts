import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { SLOW_POLL_MS } from '../polling';
import { accessKeys } from './keys';

/** GET /v1/audit?limit=…[&before=…] (organization admins), newest first. */
export function getAudit(query: { limit: number; before?: string }, signal?: AbortSignal): Promise<AuditList> {
  return apiCall(api.GET('/v1/audit', { params: { query }, signal }));
}

/** The audit log in pages of `limit`, newest first; `fetchNextPage` loads older entries (the API's `nextCursor`). */
export function useAuditQuery(enabled: boolean, limit = 50) {
  return useInfiniteQuery({
    queryKey: accessKeys.audit(),
    queryFn: ({ signal, pageParam }) => getAudit({ limit, ...(pageParam ? { before: pageParam } : {}) }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    refetchInterval: SLOW_POLL_MS,
  });
}
