import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Capacity } from '@strata/api';
import { api, apiCall } from '../fetcher';

/** The shape the bounds are asked for; `shards` only to learn how many nodes it would use. */
export interface CapacityAsk {
  replicasPerShard: number;
  memoryMbPerShard: number;
  shards?: number;
  /** Bounds for changing this cluster (Settings): its own instances count as room. */
  clusterId?: string;
}

export const capacityKeys = {
  all: () => ['capacity'] as const,
  forShape: (a: CapacityAsk) => ['capacity', a.replicasPerShard, a.memoryMbPerShard, a.shards ?? null, a.clusterId ?? null] as const,
};

/** GET /v1/capacity: bounds the placement planner allows for this shape (no per-node free memory for tenants). */
export function getCapacity(a: CapacityAsk, signal?: AbortSignal): Promise<Capacity> {
  return apiCall(api.GET('/v1/capacity', { params: { query: a }, signal }));
}

/**
 * Re-queried when replicas, memory or shards change (keyed on them), and every few seconds while the wizard is
 * open since other organizations' clusters change the room too. The previous answer stays on hand meanwhile;
 * `checkCapacity` tells when it was for another shape.
 */
export function useCapacityQuery(a: CapacityAsk) {
  return useQuery({
    queryKey: capacityKeys.forShape(a),
    queryFn: ({ signal }) => getCapacity(a, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
}
