import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Benchmark } from '@strata/api';
import { apiRequest } from '../fetcher';
import { benchmarkKeys } from './keys';

/** POST /v1/benchmarks/{id}/cancel → 202 Benchmark */
export function cancelBenchmark(id: string): Promise<Benchmark> {
  return apiRequest<Benchmark>('POST', `/v1/benchmarks/${encodeURIComponent(id)}/cancel`);
}

export function useBenchmarkCancelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelBenchmark,
    onSuccess: (b) => {
      qc.setQueryData(benchmarkKeys.detail(b.id), b);
      void qc.invalidateQueries({ queryKey: benchmarkKeys.list(b.clusterId) });
    },
  });
}
