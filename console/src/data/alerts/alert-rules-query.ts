import { useQuery } from '@tanstack/react-query';
import type { AlertRuleList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** GET /v1/alert-rules: every rule of the organization. */
export function getAlertRules(signal?: AbortSignal): Promise<AlertRuleList> {
  return apiCall(api.GET('/v1/alert-rules', { signal }));
}

export function useAlertRulesQuery() {
  return useQuery({ queryKey: alertKeys.rules(), queryFn: ({ signal }) => getAlertRules(signal), refetchInterval: 2000 });
}
