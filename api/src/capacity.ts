import { Id, z } from './common';
import { LIMITS } from './clusters';

/** The shape the bounds are asked for; each defaults to the wizard's starting choice. */
export const CapacityQuery = z.object({
  replicasPerShard: z.coerce.number().int().min(LIMITS.replicasPerShard.min).max(LIMITS.replicasPerShard.max).default(1)
    .describe('replicas per shard the memory and shard bounds are for (default 1)'),
  memoryMbPerShard: z.coerce.number().int().min(LIMITS.memoryMbPerShard.min).max(LIMITS.memoryMbPerShard.max).default(LIMITS.memoryMbPerShard.default)
    .describe('memory per shard the shard bound is for (default 256)'),
  shards: z.coerce.number().int().min(LIMITS.shards.min).max(LIMITS.shards.max).optional()
    .describe('when given, `nodesUsed` tells how many nodes this shape would occupy'),
  clusterId: Id.optional()
    .describe("bounds for changing this cluster (the Settings tab): its own instances count as room, and each bound is what its change planner accepts from the cluster's current spec"),
});
export type CapacityQuery = z.infer<typeof CapacityQuery>;

/**
 * What the caller may know about room for new clusters: bounds computed by the
 * placement planner for the shape asked, no node names, addresses or other
 * organizations' usage. Only platform admins also get each node's free memory.
 */
export const Capacity = z
  .object({
    onlineNodes: z.number().int().describe('nodes that take new instances (online, not draining)'),
    replicasPerShard: z.number().int().describe('the replicas per shard the bounds below are for'),
    memoryMbPerShard: z.number().int().describe('the memory per shard `maxShards` is for'),
    maxReplicasPerShard: z.number().int().describe('a primary and each replica need distinct nodes: online nodes - 1 (or 0), at most the limit'),
    maxMemoryMbPerShard: z.number().int().describe('the most memory per shard placeable with `replicasPerShard` replicas (0: none)'),
    maxShards: z.number().int().describe('the most shards of `memoryMbPerShard` with `replicasPerShard` replicas placeable now (0: none)'),
    nodesUsed: z.number().int().nullable().describe('distinct nodes `shards` shards of this shape would occupy; null when not asked or it does not fit'),
    nodeFreeMemoryMb: z.array(z.number().int()).optional().describe('platform admins only: free memory of each schedulable node, largest first'),
  })
  .openapi('Capacity');
export type Capacity = z.infer<typeof Capacity>;
