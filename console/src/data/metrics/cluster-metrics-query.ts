import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ClusterMetric, MetricsGrouping, MetricsResult } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { metricsKeys } from './keys';

export interface ClusterMetricsParams {
  metrics: readonly ClusterMetric[];
  from: string;
  step?: number;
  by: MetricsGrouping;
}

const toQuery = (p: ClusterMetricsParams) =>
  new URLSearchParams({ metric: p.metrics.join(','), from: p.from, by: p.by, ...(p.step ? { step: String(p.step) } : {}) }).toString();

/** GET /v1/clusters/{id}/metrics */
export function getClusterMetrics(id: string, p: ClusterMetricsParams, signal?: AbortSignal): Promise<MetricsResult> {
  return apiCall(api.GET('/v1/clusters/{id}/metrics', {
    params: { path: { id }, query: { metric: p.metrics.join(','), from: p.from, by: p.by, ...(p.step ? { step: String(p.step) } : {}) } }, signal,
  }));
}

export function useClusterMetricsQuery(id: string, p: ClusterMetricsParams, opts: { refetchInterval?: number | false; enabled?: boolean } = {}) {
  return useQuery({
    queryKey: metricsKeys.cluster(id, toQuery(p)),
    queryFn: ({ signal }) => getClusterMetrics(id, p, signal),
    refetchInterval: opts.refetchInterval ?? false,
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
