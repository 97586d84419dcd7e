import { useQuery } from '@tanstack/react-query';
import type { ClusterCurrentMetricsList, NodeCurrentMetricsList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { metricsKeys } from './keys';

/** GET /v1/metrics/clusters: each cluster's ops/s of the last second. */
export function getCurrentClusterMetrics(signal?: AbortSignal): Promise<ClusterCurrentMetricsList> {
  return apiCall(api.GET('/v1/metrics/clusters', { signal }));
}

/** GET /v1/metrics/nodes: each node's CPU, memory and disk of the last second. */
export function getCurrentNodeMetrics(signal?: AbortSignal): Promise<NodeCurrentMetricsList> {
  return apiCall(api.GET('/v1/metrics/nodes', { signal }));
}

export function useCurrentClusterMetricsQuery() {
  return useQuery({ queryKey: metricsKeys.currentClusters(), queryFn: ({ signal }) => getCurrentClusterMetrics(signal), refetchInterval: 2000 });
}

/** Host load is the platform's: only asked for when the caller sees the fleet. */
export function useCurrentNodeMetricsQuery(opts: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: metricsKeys.currentNodes(), queryFn: ({ signal }) => getCurrentNodeMetrics(signal), refetchInterval: 2000, enabled: opts.enabled ?? true });
}
