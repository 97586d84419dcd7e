import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Benchmark, BenchmarkRequestInput } from '@strata/api';
import type { StrataComponents } from '@strata/api/client';
import { api, apiCall } from '../fetcher';
import { benchmarkKeys } from './keys';

/** POST /v1/clusters/{id}/benchmarks → 202 Benchmark */
export function startBenchmark(clusterId: string, request: BenchmarkRequestInput): Promise<Benchmark> {
  return apiCall(api.POST('/v1/clusters/{id}/benchmarks', { params: { path: { id: clusterId } }, body: request as BenchmarkBody }));
}

/** openapi.json shows BenchmarkRequest as parsed (fields with defaults required); the server fills them in. */
type BenchmarkBody = StrataComponents['schemas']['BenchmarkRequest'];

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
