import { Router } from 'express';
import { LIMITS, type Capacity } from '@strata/api';
import type { PlacementNode } from '@strata/engine';
import { mountOperation } from '../http/operation-router';

export interface CapacityRoutesDeps {
  /** Nodes as placement sees them (online = takes new instances). */
  placementNodes: () => Promise<PlacementNode[]>;
}

/** Free memory per schedulable node, anonymous: what any organization may know before creating a cluster. */
export function capacityOf(nodes: PlacementNode[]): Capacity {
  const free = nodes.filter((n) => n.online).map((n) => Math.max(0, n.memoryMb - n.usedMemoryMb)).sort((a, b) => b - a);
  return {
    onlineNodes: free.length,
    nodeFreeMemoryMb: free,
    maxMemoryMbPerShard: free[0] ?? 0,
    maxReplicasPerShard: Math.min(LIMITS.replicasPerShard.max, Math.max(0, free.length - 1)),
  };
}

export function capacityRoutes(d: CapacityRoutesDeps): Router {
  const r = Router();
  mountOperation(r, '/v1/capacity', 'getCapacity', async ({ res }) => {
    res.set('Cache-Control', 'no-store');
    return capacityOf(await d.placementNodes());
  });
  return r;
}
