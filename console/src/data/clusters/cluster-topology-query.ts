import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Cluster, ClusterPhase, Topology } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../polling';
import { clusterKeys } from './keys';
import { isClusterDeleted, pollMs } from '../live/live-store';

/** GET /v1/clusters/{id}/topology */
export function getClusterTopology(id: string, signal?: AbortSignal): Promise<Topology> {
  return apiCall(api.GET('/v1/clusters/{id}/topology', { params: { path: { id } }, signal }));
}

/**
 * How often the topology is re-read. Roles and placement arrive as `topology`
 * events, but instance health is what agents report (kept in memory, not in
 * the database the stream follows), so it is polled fast while a cluster is
 * provisioning or updating. Never while it is being deleted: the cluster
 * page knows the instances are going, and a read racing the removal would
 * answer 404. Otherwise the slow poll, a 30 s fallback while the stream is live.
 */
export function topologyPollMs(s: { gone: boolean; phase: ClusterPhase | undefined; fast: boolean }): number | false {
  if (s.gone || s.phase === 'deleting') return false;
  return s.fast ? FAST_POLL_MS : pollMs(SLOW_POLL_MS);
}

export function useClusterTopologyQuery(id: string, opts: { fast: boolean }) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: clusterKeys.topology(id),
    queryFn: ({ signal }) => getClusterTopology(id, signal),
    enabled: !isClusterDeleted(id),
    refetchInterval: (q) =>
      topologyPollMs({
        gone: q.state.error?.status === 404 || isClusterDeleted(id),
        phase: qc.getQueryData<Cluster>(clusterKeys.detail(id))?.status.phase,
        fast: opts.fast,
      }),
  });
}
