/**
 * Cluster events: what happened to a cluster and what Strata did about it
 * (failovers, restarts, data loss, rebalancing, slot repair, certificate
 * rotation). Kept in PostgreSQL, newest first.
 */
import { z, Id, Timestamp, safeString } from './common';
import { TlsLayout } from './clusters';

export const EventInstanceRef = z.object({
  instanceId: Id,
  address: z.string().describe('host:port'),
  nodeName: z.string(),
});
export type EventInstanceRef = z.infer<typeof EventInstanceRef>;

export const FailoverCause = z.enum(['process-crash', 'node-lost', 'switchover', 'engine']).describe(
  'process-crash: the agent saw the primary exit; node-lost: its node stopped reporting; switchover: a data-safe planned failover; engine: Redis failed over on its own',
);
export type FailoverCause = z.infer<typeof FailoverCause>;

const base = { id: Id, clusterId: Id, at: Timestamp, message: z.string() };

export const FailoverEvent = z.object({
  ...base,
  type: z.literal('failover'),
  shard: z.number().int(),
  cause: FailoverCause,
  oldPrimary: EventInstanceRef,
  newPrimary: EventInstanceRef,
  detectedAt: Timestamp.nullable().describe('when the old primary was seen gone (agent) or asked to step down'),
  promotedAt: Timestamp.describe('when the new primary took over its slots'),
  clusterOkAt: Timestamp.describe('when the new primary reported cluster_state ok'),
  writeUnavailableMs: z.number().int().nullable().describe('the window without writes for this shard as Strata measured it: detectedAt to clusterOkAt'),
});

export const InstanceRestartedEvent = z.object({
  ...base,
  type: z.literal('instance-restarted'),
  shard: z.number().int(),
  instance: EventInstanceRef,
  reason: z.string(),
});

export const DataLostEvent = z.object({
  ...base,
  type: z.literal('data-lost'),
  shard: z.number().int(),
  instance: EventInstanceRef,
  reason: z.string(),
});

export const PrimariesRebalancedEvent = z.object({
  ...base,
  type: z.literal('primaries-rebalanced'),
  moves: z.array(z.object({ shard: z.number().int(), from: EventInstanceRef, to: EventInstanceRef })),
});

export const SlotsRepairedEvent = z.object({
  ...base,
  type: z.literal('slots-repaired'),
  slots: z.array(z.object({ slot: z.number().int(), movedKeys: z.number().int() })),
});

export const NodeDownEvent = z.object({
  ...base,
  type: z.literal('node-down'),
  node: z.object({ id: Id, name: z.string(), address: z.string() }),
  silentSince: Timestamp.describe("the node's last report"),
  instances: z.array(EventInstanceRef).describe("this cluster's instances on the node"),
});

export const ReplicaRebuiltEvent = z.object({
  ...base,
  type: z.literal('replica-rebuilt'),
  shard: z.number().int(),
  lost: EventInstanceRef.describe('the copy on the down node'),
  replacement: EventInstanceRef.describe('the new replica, on another node'),
});

export const CertificateRotatedEvent = z.object({
  ...base,
  type: z.literal('certificate-rotated'),
  shard: z.number().int(),
  instance: EventInstanceRef,
  previousExpiresAt: Timestamp.describe('when the replaced certificate would have expired'),
  expiresAt: Timestamp.describe('when the certificate the instance serves now expires'),
});

export const ClientCertificateRevokedEvent = z.object({
  ...base,
  type: z.literal('client-certificate-revoked'),
  certificateId: Id,
  name: z.string().describe("the certificate's name (its common name)"),
  serialNumber: z.string(),
});

export const BackupCompletedEvent = z.object({
  ...base,
  type: z.literal('backup-completed'),
  backupId: Id,
  trigger: z.enum(['manual', 'schedule']),
  consistent: z.boolean(),
  bytes: z.number().int().describe("the files' total size"),
  keys: z.number().int(),
  durationMs: z.number().int().describe('from the backup\'s start to its manifest'),
});

export const BackupFailedEvent = z.object({
  ...base,
  type: z.literal('backup-failed'),
  backupId: Id,
  trigger: z.enum(['manual', 'schedule']),
  code: z.string().describe("the backup's error.code (storage_failed, snapshot_failed, cancelled, ...)"),
  reason: z.string().describe("the backup's error.message"),
});

export const RestoreCompletedEvent = z.object({
  ...base,
  type: z.literal('restore-completed'),
  backupId: Id,
  sourceClusterName: z.string().describe('the cluster the backup was taken of (or the imported source)'),
  mode: z.enum(['seed', 'move']).describe('seed: each file loaded by its shard; move: keys moved by slot from temporary engines'),
  keys: z.number().int().describe("the backup's key count"),
});

export const TlsSwitchedEvent = z.object({
  ...base,
  type: z.literal('tls-switched'),
  stage: z.string().describe('the stage done: serve-tls-beside-plain, close-plain, serve-plain-beside-tls, close-tls, close-second-tls, close-second-plain'),
  served: TlsLayout.describe("what every instance serves from now on, its own port's protocol first"),
});

export const ClusterEvent = z
  .discriminatedUnion('type', [
    FailoverEvent, InstanceRestartedEvent, DataLostEvent, PrimariesRebalancedEvent, SlotsRepairedEvent, NodeDownEvent, ReplicaRebuiltEvent,
    CertificateRotatedEvent, ClientCertificateRevokedEvent, BackupCompletedEvent, BackupFailedEvent, RestoreCompletedEvent, TlsSwitchedEvent,
  ])
  .openapi('ClusterEvent');
export type ClusterEvent = z.infer<typeof ClusterEvent>;
export type ClusterEventType = ClusterEvent['type'];
export const CLUSTER_EVENT_TYPES = ['failover', 'instance-restarted', 'data-lost', 'primaries-rebalanced', 'slots-repaired', 'node-down', 'replica-rebuilt', 'certificate-rotated', 'client-certificate-revoked', 'backup-completed', 'backup-failed', 'restore-completed', 'tls-switched'] as const satisfies readonly ClusterEventType[];

export const ClusterEventList = z
  .object({
    items: z.array(ClusterEvent),
    nextCursor: z.string().nullable().describe('pass as `before` to get the next (older) page'),
  })
  .openapi('ClusterEventList');
export type ClusterEventList = z.infer<typeof ClusterEventList>;

export const ClusterEventQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: safeString().regex(/^\d{1,18}$/, 'a cursor from nextCursor').optional(),
});
export type ClusterEventQuery = z.infer<typeof ClusterEventQuery>;
