import { Router } from 'express';
import { LIMITS, type Capacity, type CapacityQuery } from '@strata/api';
import { planPlacement, type PlacementNode } from '@strata/engine';
import { maxMemoryMbPerShard, maxShards } from '../services/placement-bounds';
import { mountOperation } from '../http/operation-router';

export interface CapacityRoutesDeps {
  /** Nodes as placement sees them (online = takes new instances). */
  placementNodes: () => Promise<PlacementNode[]>;
  /** Bounds for changing one of the organization's clusters (404 when it is not theirs). */
  changeCapacity: (organizationId: string, clusterId: string, q: CapacityQuery, platformAdmin: boolean) => Promise<Capacity>;
}

/**
 * Room for a new cluster of the shape asked, found by asking the placement
 * planner itself (the one cluster creation runs), so what the wizard offers is
 * what creation accepts. Numbers only: the per-node free memory vector, which
 * follows other organizations' usage, is added for platform admins alone.
 */
export function capacityOf(nodes: PlacementNode[], q: CapacityQuery, platformAdmin: boolean): Capacity {
  const online = nodes.filter((n) => n.online);
  const free = online.map((n) => Math.max(0, n.memoryMb - n.usedMemoryMb)).sort((a, b) => b - a);
  const { replicasPerShard, memoryMbPerShard } = q;
  const plan = q.shards === undefined ? null : planPlacement({ shards: q.shards, replicasPerShard, memoryMbPerShard, nodes });
  return {
    onlineNodes: online.length,
    replicasPerShard,
    memoryMbPerShard,
    maxReplicasPerShard: Math.min(LIMITS.replicasPerShard.max, Math.max(0, online.length - 1)),
    maxMemoryMbPerShard: maxMemoryMbPerShard(nodes, replicasPerShard),
    maxShards: maxShards(nodes, replicasPerShard, memoryMbPerShard),
    nodesUsed: plan?.ok ? new Set(plan.instances.map((i) => i.nodeId)).size : null,
    ...(platformAdmin ? { nodeFreeMemoryMb: free } : {}),
  };
}

export function capacityRoutes(d: CapacityRoutesDeps): Router {
  const r = Router();
  mountOperation(r, '/v1/capacity', 'getCapacity', async ({ req, res, query }) => {
    res.set('Cache-Control', 'no-store');
    if (query.clusterId) return d.changeCapacity(req.principal!.organizationId, query.clusterId, query, req.principal!.isPlatformAdmin);
    return capacityOf(await d.placementNodes(), query, req.principal!.isPlatformAdmin);
  });
  return r;
}
