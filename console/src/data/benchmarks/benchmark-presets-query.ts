import { useQuery } from '@tanstack/react-query';
import type { BenchmarkRequest } from '@strata/api';
import { apiRequest } from '../fetcher';
import { benchmarkKeys } from './keys';

export interface SizedPreset {
  id: string;
  title: string;
  description: string;
  request: BenchmarkRequest;
}

/** GET /v1/clusters/{id}/benchmark-presets — presets sized to the cluster. */
export function getBenchmarkPresets(clusterId: string, signal?: AbortSignal): Promise<{ items: SizedPreset[] }> {
  return apiRequest<{ items: SizedPreset[] }>('GET', `/v1/clusters/${encodeURIComponent(clusterId)}/benchmark-presets`, { signal });
}

export function useBenchmarkPresetsQuery(clusterId: string) {
  return useQuery({ queryKey: benchmarkKeys.presets(clusterId), queryFn: ({ signal }) => getBenchmarkPresets(clusterId, signal), staleTime: 60_000 });
}
