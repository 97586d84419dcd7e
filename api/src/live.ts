import { z, Id } from './common';
import { Cluster } from './clusters';
import { Operation } from './operations';

/**
 * GET /v1/events/stream: server-sent events of the caller's organization.
 * The SSE `event:` name is the `type`; `data:` is this JSON. After a
 * reconnect (or when the server missed changes) a `resync` asks the client
 * to re-read everything it shows.
 */
export const LiveClusterEvent = z.object({ type: z.literal('cluster'), cluster: Cluster }).openapi('LiveClusterEvent');
export const LiveClusterDeletedEvent = z.object({ type: z.literal('cluster-deleted'), clusterId: Id }).openapi('LiveClusterDeletedEvent');
export const LiveOperationEvent = z.object({ type: z.literal('operation'), operation: Operation }).openapi('LiveOperationEvent');
export const LiveClusterActivityEvent = z
  .object({ type: z.literal('cluster-activity'), clusterId: Id, eventType: z.string().describe('type of the cluster event just recorded') })
  .openapi('LiveClusterActivityEvent');
export const LiveTopologyEvent = z
  .object({ type: z.literal('topology'), clusterId: Id })
  .openapi('LiveTopologyEvent')
  .describe('instances were placed, replaced or changed role: re-read the topology');
export const LiveResyncEvent = z.object({ type: z.literal('resync') }).openapi('LiveResyncEvent');

export const LiveEvent = z
  .discriminatedUnion('type', [LiveClusterEvent, LiveClusterDeletedEvent, LiveOperationEvent, LiveClusterActivityEvent, LiveTopologyEvent, LiveResyncEvent])
  .openapi('LiveEvent');
export type LiveEvent = z.infer<typeof LiveEvent>;
export type LiveEventType = LiveEvent['type'];
