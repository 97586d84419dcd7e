import { useQuery } from '@tanstack/react-query';
import type { AlertList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** GET /v1/alerts: firing and resolved alerts, newest first. */
export function getAlerts(signal?: AbortSignal): Promise<AlertList> {
  return apiCall(api.GET('/v1/alerts', { params: { query: { limit: 100 } }, signal }));
}

export function useAlertsQuery() {
  return useQuery({ queryKey: alertKeys.alerts(), queryFn: ({ signal }) => getAlerts(signal), refetchInterval: 1000 });
}
