import { useQuery } from '@tanstack/react-query';
import type { AuditList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { SLOW_POLL_MS } from '../polling';
import { accessKeys } from './keys';

/** GET /v1/audit?limit=… (organization admins), newest first. */
export function getAudit(limit: number, signal?: AbortSignal): Promise<AuditList> {
  return apiCall(api.GET('/v1/audit', { params: { query: { limit } }, signal }));
}

export function useAuditQuery(enabled: boolean, limit = 50) {
  return useQuery({ queryKey: accessKeys.audit(), queryFn: ({ signal }) => getAudit(limit, signal), enabled, refetchInterval: SLOW_POLL_MS });
}
