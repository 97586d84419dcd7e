import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Benchmark, BenchmarkRequestInput } from '@strata/api';
import { apiRequest } from '../fetcher';
import { benchmarkKeys } from './keys';

/** POST /v1/clusters/{id}/benchmarks → 202 Benchmark */
export function startBenchmark(clusterId: string, request: BenchmarkRequestInput): Promise<Benchmark> {
  return apiRequest<Benchmark>('POST', `/v1/clusters/${encodeURIComponent(clusterId)}/benchmarks`, { body: request });
}

export function useBenchmarkStartMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: BenchmarkRequestInput) => startBenchmark(clusterId, request),
    onSuccess: (b) => {
      qc.setQueryData(benchmarkKeys.detail(b.id), b);
      void qc.invalidateQueries({ queryKey: benchmarkKeys.list(clusterId) });
    },
  });
}
