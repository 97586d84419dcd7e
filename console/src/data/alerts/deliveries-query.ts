import { useQuery } from '@tanstack/react-query';
import type { DeliveryList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** GET /v1/notification-channels/{id}/deliveries: the delivery log, newest first. */
export function getDeliveries(id: string, signal?: AbortSignal): Promise<DeliveryList> {
  return apiCall(api.GET('/v1/notification-channels/{id}/deliveries', { params: { path: { id } }, signal }));
}

/** Polled while shown: pending deliveries change within seconds. */
export function useDeliveriesQuery(id: string, enabled: boolean) {
  return useQuery({ queryKey: alertKeys.deliveries(id), queryFn: ({ signal }) => getDeliveries(id, signal), enabled, refetchInterval: 1000 });
}
