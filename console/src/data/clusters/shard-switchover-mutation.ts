import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterWithOperation } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clusterKeys } from './keys';

/** POST /v1/clusters/{id}/shards/{index}/switchover → 202 {cluster, operation} */
export function switchoverShard(id: string, shard: number, targetInstanceId?: string): Promise<ClusterWithOperation> {
  return apiCall(api.POST('/v1/clusters/{id}/shards/{index}/switchover', { params: { path: { id, index: String(shard) } }, body: targetInstanceId ? { targetInstanceId } : {} }));
}

export function useShardSwitchoverMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ shard, targetInstanceId }: { shard: number; targetInstanceId?: string }) => switchoverShard(id, shard, targetInstanceId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clusterKeys.detail(id) }),
  });
}
