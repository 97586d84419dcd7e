import { useInfiniteQuery, keepPreviousData } from '@tanstack/react-query';
import type { AuditEntry, AuditList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { SLOW_POLL_MS } from '../polling';
import { accessKeys } from './keys';

/** The audit log's filters (GET /v1/audit): actor and resource contain, kind is a kind or a prefix, from/to ISO times. */
export interface AuditFilters {
  actor?: string;
  kind?: string;
  resource?: string;
  from?: string;
  to?: string;
}

/** GET /v1/audit?limit=…[&before=…][&filters] (organization admins), newest first. */
export function getAudit(query: AuditFilters & { limit: number; before?: string }, signal?: AbortSignal): Promise<AuditList> {
  const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  return apiCall(api.GET('/v1/audit', { params: { query: q as never }, signal }));
}

/** Every entry matching the filters, newest first, page after page (at most `max`): for an export. */
export async function getAllAudit(filters: AuditFilters, max = 10_000): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  let before: string | undefined;
  do {
    const page = await getAudit({ ...filters, limit: 500, ...(before ? { before } : {}) });
    out.push(...page.items);
    before = page.nextCursor ?? undefined;
  } while (before && out.length < max);
  return out.slice(0, max);
}

/** The audit log in pages of `limit`, newest first; `fetchNextPage` loads older entries (the API's `nextCursor`). */
export function useAuditQuery(enabled: boolean, filters: AuditFilters = {}, limit = 50) {
  return useInfiniteQuery({
    queryKey: accessKeys.audit(filters),
    queryFn: ({ signal, pageParam }) => getAudit({ ...filters, limit, ...(pageParam ? { before: pageParam } : {}) }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: SLOW_POLL_MS,
  });
}
