import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Benchmark } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { benchmarkKeys } from './keys';

/** POST /v1/benchmarks/{id}/cancel → 202 Benchmark */
export function cancelBenchmark(id: string): Promise<Benchmark> {
  return apiCall(api.POST('/v1/benchmarks/{id}/cancel', { params: { path: { id } } }));
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
