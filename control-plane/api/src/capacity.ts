import { z } from './common';

/**
 * What the caller may know about room for new clusters: numbers only, no
 * node names, addresses or other organizations' clusters.
 */
export const Capacity = z
  .object({
    onlineNodes: z.number().int().describe('nodes that take new instances (online, not draining)'),
    nodeFreeMemoryMb: z.array(z.number().int()).describe('free memory of each of those nodes, largest first (anonymous)'),
    maxMemoryMbPerShard: z.number().int().describe('the most memory one instance can get: the largest free node'),
    maxReplicasPerShard: z.number().int().describe('a primary and each replica need distinct nodes: online nodes - 1 (or 0)'),
  })
  .openapi('Capacity');
export type Capacity = z.infer<typeof Capacity>;
