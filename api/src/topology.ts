/**
 * Topology changes of a running cluster: PATCH /v1/clusters/{id} with a dry
 * run that returns the plan, and switchover of a shard's primary.
 */
import { z, Id } from './common';
import { Cluster, Durability, EngineVersion, EvictionPolicy, Fencing, LIMITS, MigrationPriority, SlotRange, TlsClientAuth, TlsMode } from './clusters';
import { Operation } from './operations';
import { MaintenanceWindow } from './maintenance-window';

/** What PATCH /v1/clusters/{id} may change; every field optional, at least one. */
export const UpdateClusterRequest = z
  .strictObject({
    shards: z.number().int().min(LIMITS.shards.min).max(LIMITS.shards.max).optional(),
    replicasPerShard: z.number().int().min(LIMITS.replicasPerShard.min).max(LIMITS.replicasPerShard.max).optional(),
    memoryMbPerShard: z.number().int().min(LIMITS.memoryMbPerShard.min).max(LIMITS.memoryMbPerShard.max).optional(),
    durability: Durability.optional(),
    evictionPolicy: EvictionPolicy.optional(),
    fencing: Fencing.optional().describe('turned on or off in place on every instance (CONFIG SET, no restart); on needs replicasPerShard >= 1'),
    tlsClientAuth: TlsClientAuth.optional().describe('client certificates none, optional or required, changed in place on every instance in any order (CONFIG SET tls-auth-clients, no restart; open connections stay); optional and required need tls required'),
    migrationPriority: MigrationPriority.optional().describe('applies to this change\'s slot moves and every later one'),
    engineVersion: EngineVersion.optional().describe('set at create: another engine than the cluster\'s is refused (422 engine_change_unsupported)'),
    tls: TlsMode.optional().describe('valkey-8: switched in place as a tls-switch operation, alone in its PATCH (no restart; replicas before primaries; preferred serves both protocols while clients move). On a 7 cluster 422 tls_switch_needs_valkey (Redis 7.0 announces one client port, so cluster clients of one protocol would be sent to the other\'s port)'),
    maintenanceWindow: MaintenanceWindow.nullable().optional().describe('set (or with null, remove) the weekly maintenance window; alone it changes no engine and runs no operation'),
  })
  .refine((r) => Object.values(r).some((v) => v !== undefined), { message: 'name at least one of shards, replicasPerShard, memoryMbPerShard, durability, evictionPolicy, fencing, tlsClientAuth, tls, migrationPriority, maintenanceWindow' })
  .openapi('UpdateClusterRequest');
export type UpdateClusterRequest = z.infer<typeof UpdateClusterRequest>;

export const UpdateClusterQuery = z.object({
  dryRun: z.enum(['true', 'false']).optional().describe('true: return the plan and change nothing'),
});

export const PlannedSlotMove = z
  .object({
    fromShard: z.number().int(),
    toShard: z.number().int(),
    slots: z.array(SlotRange),
    slotCount: z.number().int(),
    estimatedKeys: z.number().int().describe('from the source shard\'s live key count, pro rata by slots'),
    estimatedBytes: z.number().int().describe('from the source shard\'s used memory, pro rata by slots'),
  })
  .openapi('PlannedSlotMove');
export type PlannedSlotMove = z.infer<typeof PlannedSlotMove>;

export const PlannedInstanceChange = z
  .object({
    instanceId: Id.nullable().describe('existing instance (removals); null for a new one'),
    shard: z.number().int(),
    role: z.enum(['primary', 'replica']),
    nodeId: Id,
    nodeName: z.string(),
    port: z.number().int(),
  })
  .openapi('PlannedInstanceChange');
export type PlannedInstanceChange = z.infer<typeof PlannedInstanceChange>;

export const PlannedStep = z.object({ name: z.string(), title: z.string() }).openapi('PlannedStep');
export type PlannedStep = z.infer<typeof PlannedStep>;

export const MigrationCost = z
  .object({
    priority: MigrationPriority,
    estimatedSeconds: z.number().describe('rough duration of the slot moves on an otherwise idle cluster'),
    maxBlockMs: z.number().describe('longest a single migration step holds a primary: what an application request may wait behind it'),
    summary: z.string(),
  })
  .openapi('MigrationCost');
export type MigrationCost = z.infer<typeof MigrationCost>;

export const TopologyPlan = z
  .object({
    changes: z.array(z.object({ field: z.string(), from: z.union([z.number(), z.string()]), to: z.union([z.number(), z.string()]) })),
    slotMoves: z.array(PlannedSlotMove),
    addInstances: z.array(PlannedInstanceChange),
    removeInstances: z.array(PlannedInstanceChange),
    steps: z.array(PlannedStep).describe('in the order they run'),
    online: z.boolean().describe('true: applications keep reading and writing throughout (no engine restarts)'),
    notes: z.array(z.string()),
    totals: z.object({ slots: z.number().int(), keys: z.number().int(), bytes: z.number().int() }),
    migrationPriority: MigrationPriority.describe('the priority the slot moves of this change run at'),
    migrationCosts: z.array(MigrationCost).describe('what moving these slots costs at each priority (empty when no slot moves)'),
  })
  .openapi('TopologyPlan');
export type TopologyPlan = z.infer<typeof TopologyPlan>;

export const UpdateClusterDryRun = z
  .object({ dryRun: z.literal(true), plan: TopologyPlan })
  .openapi('UpdateClusterDryRun');
export type UpdateClusterDryRun = z.infer<typeof UpdateClusterDryRun>;

export const SwitchoverRequest = z
  .strictObject({ targetInstanceId: Id.optional().describe('the replica to promote; default: the most caught-up in-sync replica') })
  .openapi('SwitchoverRequest');
export type SwitchoverRequest = z.infer<typeof SwitchoverRequest>;

export const ClusterUpdateAccepted = z
  .object({ cluster: Cluster, operation: Operation, plan: TopologyPlan })
  .openapi('ClusterUpdateAccepted');
export type ClusterUpdateAccepted = z.infer<typeof ClusterUpdateAccepted>;

export const UpdateClusterApplied = z
  .object({
    cluster: Cluster,
    operation: z.null().describe('a change of settings that restart no engine (maintenanceWindow alone) applies at once, without an operation'),
  })
  .openapi('UpdateClusterApplied');
export type UpdateClusterApplied = z.infer<typeof UpdateClusterApplied>;

/** POST /v1/clusters/{id}/restart (the body is optional). */
export const RestartClusterRequest = z
  .strictObject({
    when: z.enum(['now', 'maintenance_window']).optional()
      .describe("now: start at once; maintenance_window: wait for the cluster's next window (default when the cluster has one)"),
    force: z.boolean().optional().describe('true: start now even though the cluster has a maintenance window'),
  })
  .openapi('RestartClusterRequest');
export type RestartClusterRequest = z.infer<typeof RestartClusterRequest>;

export const CA_RETIRE_AFTER_SECONDS = { max: 30 * 86_400, default: 3600 } as const;

export const RotateCaRequest = z
  .strictObject({
    retireAfterSeconds: z.number().int().min(0).max(CA_RETIRE_AFTER_SECONDS.max).optional()
      .describe(`how long after every instance serves a certificate of the new CA the old CA stays trusted (default ${CA_RETIRE_AFTER_SECONDS.default}): time for clients to take the new CA`),
  })
  .openapi('RotateCaRequest');
export type RotateCaRequest = z.infer<typeof RotateCaRequest>;
