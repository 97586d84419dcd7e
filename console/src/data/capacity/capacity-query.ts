import { useQuery } from '@tanstack/react-query';
import type { Capacity } from '@strata/api';
import { api, apiCall } from '../fetcher';

export const capacityKeys = { current: () => ['capacity'] as const };

/** GET /v1/capacity: anonymous free memory per schedulable node. */
export function getCapacity(signal?: AbortSignal): Promise<Capacity> {
  return apiCall(api.GET('/v1/capacity', { signal }));
}

/** Other organizations' clusters change it too, so it is re-read every few seconds while the wizard is open. */
export function useCapacityQuery() {
  return useQuery({ queryKey: capacityKeys.current(), queryFn: ({ signal }) => getCapacity(signal), refetchInterval: 3000 });
}
