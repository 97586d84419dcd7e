import { useQuery } from '@tanstack/react-query';
import type { Benchmark } from '@strata/api';
import { apiRequest } from '../fetcher';
import { FAST_POLL_MS } from '../polling';
import { benchmarkKeys, isBenchmarkActive } from './keys';

/** GET /v1/benchmarks/{id} */
export function getBenchmark(id: string, signal?: AbortSignal): Promise<Benchmark> {
  return apiRequest<Benchmark>('GET', `/v1/benchmarks/${encodeURIComponent(id)}`, { signal });
}

export function useBenchmarkQuery(id: string | undefined) {
  return useQuery({
    queryKey: benchmarkKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getBenchmark(id!, signal),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && isBenchmarkActive(q.state.data.state) ? FAST_POLL_MS : false),
  });
}
