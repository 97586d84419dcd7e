import { useQuery } from '@tanstack/react-query';
import type { BenchmarkList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { benchmarkKeys, isBenchmarkActive } from './keys';

/** GET /v1/clusters/{id}/benchmarks — newest first. */
export function getBenchmarks(clusterId: string, signal?: AbortSignal): Promise<BenchmarkList> {
  return apiCall(api.GET('/v1/clusters/{id}/benchmarks', { params: { path: { id: clusterId } }, signal }));
}

export function useBenchmarksQuery(clusterId: string) {
  return useQuery({
    queryKey: benchmarkKeys.list(clusterId),
    queryFn: ({ signal }) => getBenchmarks(clusterId, signal),
    refetchInterval: (q) => (q.state.data?.items.some((b) => isBenchmarkActive(b.state)) ? FAST_POLL_MS : SLOW_POLL_MS),
  });
}
