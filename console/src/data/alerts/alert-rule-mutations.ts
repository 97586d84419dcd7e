import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertRule, CreateAlertRuleRequest, UpdateAlertRuleRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** POST /v1/clusters/{id}/alert-rules, or POST /v1/alert-rules for the whole organization (clusterId null). */
export function createAlertRule({ clusterId, body }: { clusterId: string | null; body: CreateAlertRuleRequest }): Promise<AlertRule> {
  return clusterId
    ? apiCall(api.POST('/v1/clusters/{id}/alert-rules', { params: { path: { id: clusterId } }, body }))
    : apiCall(api.POST('/v1/alert-rules', { body }));
}

/** PATCH /v1/alert-rules/{id}. */
export function updateAlertRule({ id, body }: { id: string; body: UpdateAlertRuleRequest }): Promise<AlertRule> {
  return apiCall(api.PATCH('/v1/alert-rules/{id}', { params: { path: { id } }, body }));
}

/** DELETE /v1/alert-rules/{id} → 204. */
export async function deleteAlertRule(id: string): Promise<void> {
  await apiCall(api.DELETE('/v1/alert-rules/{id}', { params: { path: { id } } }));
}

function useInvalidatingMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: alertKeys.all }) });
}

export const useAlertRuleCreateMutation = () => useInvalidatingMutation(createAlertRule);
export const useAlertRuleUpdateMutation = () => useInvalidatingMutation(updateAlertRule);
export const useAlertRuleDeleteMutation = () => useInvalidatingMutation(deleteAlertRule);
