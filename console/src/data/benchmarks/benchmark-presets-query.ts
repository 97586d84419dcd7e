import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BenchmarkRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { benchmarkKeys } from './keys';

export interface SizedPreset {
  id: string;
  title: string;
  description: string;
  request: BenchmarkRequest;
  /** What a run does to the cluster, in plain words. */
  impact: string;
  /** It interrupts service (a killed primary): asked before it runs. */
  disruptive: boolean;
}

/** GET /v1/clusters/{id}/benchmark-presets — presets sized to the cluster. */
export function getBenchmarkPresets(clusterId: string, signal?: AbortSignal): Promise<{ items: SizedPreset[] }> {
  return apiCall(api.GET('/v1/clusters/{id}/benchmark-presets', { params: { path: { id: clusterId } }, signal }));
}

export function useBenchmarkPresetsQuery(clusterId: string) {
  return useQuery({ queryKey: benchmarkKeys.presets(clusterId), queryFn: ({ signal }) => getBenchmarkPresets(clusterId, signal), staleTime: 60_000 });
}

/** Starts the presets' read before the component that shows them has loaded (a lazy chunk). */
export function usePrefetchBenchmarkPresets(clusterId: string, enabled: boolean) {
  const qc = useQueryClient();
  useEffect(() => {
    if (enabled) void qc.prefetchQuery({ queryKey: benchmarkKeys.presets(clusterId), queryFn: ({ signal }) => getBenchmarkPresets(clusterId, signal), staleTime: 60_000 });
  }, [qc, clusterId, enabled]);
}
