import { useQuery } from '@tanstack/react-query';
import type { Benchmark } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS } from '../polling';
import { benchmarkKeys, isBenchmarkActive } from './keys';

/** GET /v1/benchmarks/{id} */
export function getBenchmark(id: string, signal?: AbortSignal): Promise<Benchmark> {
  return apiCall(api.GET('/v1/benchmarks/{id}', { params: { path: { id } }, signal }));
}

export function useBenchmarkQuery(id: string | undefined) {
  return useQuery({
    queryKey: benchmarkKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getBenchmark(id!, signal),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && isBenchmarkActive(q.state.data.state) ? FAST_POLL_MS : false),
  });
}
