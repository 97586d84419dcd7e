/**
 * The agent protocol: how a node agent registers, reports what it observes and
 * leases tasks. Agents and the control plane meet only over these types.
 */
import { z, Id, Timestamp, safeString, freeText } from './common';
import { Durability, EngineVersion, EvictionPolicy, Fencing, InstanceRole, MigrationPriority, SlotRange, TlsClientAuth, TlsLayout } from './clusters';
import { MigrationProgress } from './operations';
import { BenchmarkTaskSpec } from './benchmarks';
import { DiskProfileTaskSpec } from './disk-profiles';
import { BackupConsistentStartResult, BackupConsistentStartTaskSpec, BackupShardResult, BackupShardTaskSpec, ImportShardTaskSpec, InstanceSeed, RestoreKeysResult, RestoreKeysTaskSpec, StorageCredentials } from './backups';
import { DatabaseUserAcl } from './database-users';
import { KeyScanShardResult, KeyScanTaskSpec, SlowLogTaskResult, SlowLogTaskSpec } from './diagnostics';

export const RegisterAgentRequest = z
  .strictObject({
    joinToken: safeString().min(10),
    name: safeString().min(1).max(64),
    address: safeString().min(1).describe('IP the node binds engines to and other nodes reach it on'),
    memoryMb: z.number().int().min(64).max(2_147_483_647).describe('stored as a 32-bit integer'),
    agentVersion: safeString().max(100),
  })
  .openapi('RegisterAgentRequest');
export type RegisterAgentRequest = z.infer<typeof RegisterAgentRequest>;

export const RegisterAgentResponse = z
  .object({ nodeId: Id, credential: z.string() })
  .openapi('RegisterAgentResponse');
export type RegisterAgentResponse = z.infer<typeof RegisterAgentResponse>;

export const EngineCredentials = z.object({
  customerUser: z.string(),
  customerPassword: z.string(),
  internalUser: z.string(),
  internalPassword: z.string(),
  tls: z.object({
    caCertificate: z.string().describe('PEM of the cluster CA: every connection to an instance verifies against it'),
    instanceCertificate: z.object({ certificate: z.string(), privateKey: z.string() }).optional()
      .describe('the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on'),
    trustedCertificates: z.string().optional()
      .describe("PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone)"),
    clientCertificate: z.object({ certificate: z.string(), privateKey: z.string() }).optional()
      .describe("the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates)"),
    plainPort: z.boolean().optional().describe("true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text"),
  }).optional().describe('present when the cluster serves TLS somewhere (its ports, a second port, or its bus)'),
  databaseUsers: z.array(DatabaseUserAcl).optional().describe("the cluster's database users as desired when the task was handed out (password hashes only)"),
});
export type EngineCredentials = z.infer<typeof EngineCredentials>;

export const InstanceTlsLayout = z.object({
  layout: TlsLayout.describe("the instance's own port's protocol first; plain+tls and tls+plain serve the other on secondPort"),
  secondPort: z.number().int().optional(),
  bus: z.boolean().describe('the cluster bus speaks TLS (kept from the cluster\'s create)'),
});

/** Everything an agent needs to run one redis-server instance. */
export const InstanceSpec = z.object({
  instanceId: Id,
  clusterId: Id,
  port: z.number().int(),
  memoryMb: z.number().int(),
  durability: Durability,
  evictionPolicy: EvictionPolicy,
  fencing: Fencing.optional().describe('absent: off'),
  tlsClientAuth: TlsClientAuth.optional().describe('a TLS instance: client certificates required (tls-auth-clients); absent: none'),
  engineVersion: EngineVersion.optional().describe("the engine the agent runs: valkey-8 starts valkey-server; absent or 7: redis-server"),
  tlsLayout: InstanceTlsLayout.optional().describe('a valkey-8 cluster whose TLS is or was switched in place: what its ports and bus serve; absent: the credentials decide (TLS everywhere, or none)'),
});
export type InstanceSpec = z.infer<typeof InstanceSpec>;

/** One member of an in-place TLS switch stage, carried out by the agent of its node. */
export const TlsSwitchMemberSpec = z.object({
  instanceId: Id, host: z.string(), port: z.number().int(), secondPort: z.number().int(), role: InstanceRole,
});
const TlsSwitchTask = {
  clusterId: Id,
  direction: z.enum(['on', 'off']),
  stage: z.enum(['serve-both', 'finish', 'withdraw']),
  member: TlsSwitchMemberSpec,
  replicas: z.number().int().describe('a primary: replicas that must be linked on the new protocol before its part is done'),
  instance: InstanceSpec.describe('the instance as it runs after the stage (kept by the agent and written into its config)'),
};

export const ClusterMember = z.object({
  instanceId: Id,
  host: z.string(),
  port: z.number().int(),
});
export type ClusterMember = z.infer<typeof ClusterMember>;

/** A member of a cluster as forget-nodes sees it: nothing known at its id or address is forgotten. */
export const ForgetMember = ClusterMember.extend({
  engineId: z.string().nullable().describe('its Redis node id as last recorded (null: never seen running)'),
  running: z.boolean().describe('it runs now and forgets the others; a member that does not run is only kept'),
});
export type ForgetMember = z.infer<typeof ForgetMember>;

/** The slots one primary should own when a migration ends. */
export const SlotTarget = z.object({
  instanceId: Id, host: z.string(), port: z.number().int(), slots: z.array(SlotRange),
  shardEngineIds: z.array(z.string()).default([]).describe("Redis node ids of the target's shard's other instances: a slot only one of them (dead now) claims is claimed by the target"),
});
export type SlotTarget = z.infer<typeof SlotTarget>;

export const FormClusterShard = z.object({
  slots: z.array(SlotRange),
  primary: ClusterMember,
  replicas: z.array(ClusterMember),
});
export type FormClusterShard = z.infer<typeof FormClusterShard>;

/**
 * What the control plane asks an agent to do, as stored (never with secrets).
 * The union is checked when a task is enqueued; an agent gets the same
 * request plus the cluster's engine credentials where it needs them.
 */
export const TaskRequest = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ensure-instance'), instance: InstanceSpec, seed: InstanceSeed.optional().describe("a restored primary: its data, loaded at its first start"),
    dropClaims: z.boolean().optional().describe('a crashed primary another member replaced: it starts without the slots and migration marks it claimed when it stopped, and rejoins as a replica'),
    release: z.boolean().optional().describe('an engine the agent holds (a crashed former primary) may start again: only healing\'s restart and a cluster still being created say so; any other ensure leaves a held engine stopped'),
  }),
  z.object({ kind: z.literal('remove-instance'), instanceId: Id, clusterId: Id }),
  z.object({ kind: z.literal('restart-instance'), instanceId: Id, clusterId: Id }).describe('stop the running engine gracefully and start it again with its data and config (a rolling restart)'),
  z.object({ kind: z.literal('form-cluster'), clusterId: Id, shards: z.array(FormClusterShard) }),
  z.object({
    kind: z.literal('failover'),
    clusterId: Id,
    instanceId: Id.describe('the replica to promote'),
    port: z.number().int(),
    mode: z.enum(['force', 'takeover', 'switchover']).describe('force/takeover: its primary is dead; switchover: data-safe CLUSTER FAILOVER'),
  }),
  z.object({
    kind: z.literal('repair-slots'),
    clusterId: Id,
    primaries: z.array(ClusterMember).describe('every primary; open slots on them are closed'),
  }),
  z.object({
    kind: z.literal('join-replica'),
    clusterId: Id,
    instanceId: Id.describe('the new instance, on this node'),
    port: z.number().int(),
    primary: ClusterMember.describe('the primary it replicates'),
  }),
  z.object({
    kind: z.literal('forget-nodes'),
    clusterId: Id,
    members: z.array(ForgetMember).describe("every member of the cluster: each running one forgets every node it knows that has neither a member's Redis id nor a member's address"),
  }),
  z.object({ kind: z.literal('configure-instance'), instance: InstanceSpec.describe('new memory, durability, eviction: CONFIG SET live, config file rewritten') }),
  z.object({ kind: z.literal('sync-users'), clusterId: Id, instanceId: Id }).describe("the database users in the credentials, set with ACL SETUSER/DELUSER and written into the instance's config"),
  z.object({
    kind: z.literal('renew-certificate'), clusterId: Id, instanceId: Id,
    replaces: Timestamp.describe('the expiry of the certificate being replaced'),
  }).describe("a TLS instance's fresh certificate (in the credentials) written into its directory and loaded with CONFIG SET, without a restart"),
  z.object({ kind: z.literal('sync-trust'), clusterId: Id, instanceId: Id })
    .describe("a TLS instance's CA file rewritten from the credentials' trustedCertificates and loaded with CONFIG SET, without a restart"),
  z.object({ kind: z.literal('tls-switch'), ...TlsSwitchTask })
    .describe("one instance's part of a stage of an in-place TLS switch (valkey-8): CONFIG SET on the running engine (its certificate written first), no restart"),
  z.object({
    kind: z.literal('meet-primary'),
    clusterId: Id,
    instanceId: Id.describe('the new, empty primary on this node'),
    port: z.number().int(),
    seed: ClusterMember.describe('a member of the cluster to MEET'),
  }),
  z.object({
    kind: z.literal('migrate-slots'),
    clusterId: Id,
    targets: z.array(SlotTarget).describe('the wanted owner of every slot: slots owned elsewhere are moved there'),
    primaries: z.array(ClusterMember).describe('every primary (sources, targets, bystanders): each gets the final SETSLOT NODE'),
    priority: MigrationPriority.default('balanced').describe('how hard the move may press on the primaries (batch time budget, parallel pairs, rests)'),
  }),
  BenchmarkTaskSpec.extend({ kind: z.literal('benchmark') }),
  DiskProfileTaskSpec.extend({ kind: z.literal('disk-profile') }),
  BackupShardTaskSpec.extend({ kind: z.literal('backup-shard') }),
  BackupConsistentStartTaskSpec.extend({ kind: z.literal('backup-consistent-start') }),
  SlowLogTaskSpec.extend({ kind: z.literal('slowlog') }).describe("read (or reset) the slow log of the cluster's instances on this node"),
  KeyScanTaskSpec.extend({ kind: z.literal('key-scan') }).describe('scan one shard for its biggest (and, under LFU, hottest) keys, throttled'),
  ImportShardTaskSpec.extend({ kind: z.literal('import-shard') }).describe('fetch one primary of an import\'s source over the replication protocol into the backup\'s storage'),
  RestoreKeysTaskSpec.extend({ kind: z.literal('restore-keys') }).describe("load one backup file into a temporary engine and move its keys by slot into the new cluster's primaries"),
]);
export type TaskRequest = z.infer<typeof TaskRequest>;
export type TaskKind = TaskRequest['kind'];

/** Task kinds that need no engine credentials on the agent. */
export const TASKS_WITHOUT_CREDENTIALS = ['remove-instance', 'restart-instance', 'disk-profile', 'import-shard'] as const satisfies readonly TaskKind[];

export const TaskPayload = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ensure-instance'), instance: InstanceSpec, seed: InstanceSeed.optional(), dropClaims: z.boolean().optional(), release: z.boolean().optional(), credentials: EngineCredentials }),
  z.object({ kind: z.literal('remove-instance'), instanceId: Id, clusterId: Id }),
  z.object({ kind: z.literal('restart-instance'), instanceId: Id, clusterId: Id }),
  z.object({ kind: z.literal('form-cluster'), clusterId: Id, shards: z.array(FormClusterShard), credentials: EngineCredentials }),
  z.object({
    kind: z.literal('failover'), clusterId: Id, instanceId: Id, port: z.number().int(),
    mode: z.enum(['force', 'takeover', 'switchover']), credentials: EngineCredentials,
  }),
  z.object({ kind: z.literal('repair-slots'), clusterId: Id, primaries: z.array(ClusterMember), credentials: EngineCredentials }),
  z.object({ kind: z.literal('join-replica'), clusterId: Id, instanceId: Id, port: z.number().int(), primary: ClusterMember, credentials: EngineCredentials }),
  z.object({ kind: z.literal('forget-nodes'), clusterId: Id, members: z.array(ForgetMember), credentials: EngineCredentials }),
  z.object({ kind: z.literal('configure-instance'), instance: InstanceSpec, credentials: EngineCredentials }),
  z.object({ kind: z.literal('sync-users'), clusterId: Id, instanceId: Id, credentials: EngineCredentials }),
  z.object({ kind: z.literal('renew-certificate'), clusterId: Id, instanceId: Id, replaces: Timestamp, credentials: EngineCredentials }),
  z.object({ kind: z.literal('sync-trust'), clusterId: Id, instanceId: Id, credentials: EngineCredentials }),
  z.object({ kind: z.literal('tls-switch'), ...TlsSwitchTask, credentials: EngineCredentials }),
  z.object({ kind: z.literal('meet-primary'), clusterId: Id, instanceId: Id, port: z.number().int(), seed: ClusterMember, credentials: EngineCredentials }),
  z.object({
    kind: z.literal('migrate-slots'), clusterId: Id, targets: z.array(SlotTarget), primaries: z.array(ClusterMember),
    priority: MigrationPriority.default('balanced'), credentials: EngineCredentials,
  }),
  BenchmarkTaskSpec.extend({ kind: z.literal('benchmark'), credentials: EngineCredentials }),
  DiskProfileTaskSpec.extend({ kind: z.literal('disk-profile') }),
  BackupShardTaskSpec.extend({ kind: z.literal('backup-shard'), credentials: EngineCredentials, storageCredentials: StorageCredentials.optional() }),
  BackupConsistentStartTaskSpec.extend({ kind: z.literal('backup-consistent-start'), credentials: EngineCredentials }),
  SlowLogTaskSpec.extend({ kind: z.literal('slowlog'), credentials: EngineCredentials }),
  KeyScanTaskSpec.extend({ kind: z.literal('key-scan'), credentials: EngineCredentials }),
  RestoreKeysTaskSpec.extend({ kind: z.literal('restore-keys'), credentials: EngineCredentials }),
  ImportShardTaskSpec.extend({ kind: z.literal('import-shard'), sourcePassword: z.string().optional(), storageCredentials: StorageCredentials.optional() }),
]);
export type TaskPayload = z.infer<typeof TaskPayload>;

/** What a finished task tells the control plane, per kind (optional). */
export const TaskResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('failover'), promotedAt: Timestamp, mode: z.enum(['force', 'takeover', 'switchover']) }),
  z.object({ kind: z.literal('repair-slots'), repaired: z.array(z.object({ slot: z.number().int(), movedKeys: z.number().int() })) }),
  z.object({
    kind: z.literal('migrate-slots'),
    complete: z.boolean().describe('false: stopped early (paused or cancelled) after closing the slot in flight'),
    slotsMoved: z.number().int(),
    keysMoved: z.number().int(),
    bytesMoved: z.number().int(),
    final: z.array(z.object({ instanceId: Id, slotsOwned: z.number().int(), openSlots: z.number().int() })).optional()
      .describe('complete runs: each primary\'s own slot count and open slots, read after the last slot closed'),
  }),
  BackupShardResult,
  BackupConsistentStartResult,
  SlowLogTaskResult,
  KeyScanShardResult,
  RestoreKeysResult,
]);
export type TaskResult = z.infer<typeof TaskResult>;

export const AgentTask = z
  .object({ id: Id, attempt: z.number().int(), leaseExpiresAt: Timestamp, payload: TaskPayload })
  .openapi('AgentTask');
export type AgentTask = z.infer<typeof AgentTask>;

export const LeaseTaskResponse = z.object({ task: AgentTask.nullable() }).openapi('LeaseTaskResponse');
export type LeaseTaskResponse = z.infer<typeof LeaseTaskResponse>;

/**
 * A task's lease (ms), extended by the agent's heartbeats: a task leased just before a crash is handed out again within
 * seconds, and an agent whose heartbeats go unanswered this long stops the task at its next safe point.
 */
export const TASK_LEASE_MS = 6_000;

export const HeartbeatResponse = z
  .object({ stop: z.boolean().describe('the task should stop early at a safe point (its operation was paused or cancelled)') })
  .openapi('HeartbeatResponse');
export type HeartbeatResponse = z.infer<typeof HeartbeatResponse>;

export const CompleteTaskRequest = z
  .strictObject({
    outcome: z.enum(['succeeded', 'failed']),
    error: freeText().optional(),
    result: TaskResult.optional(),
  })
  .openapi('CompleteTaskRequest');
export type CompleteTaskRequest = z.infer<typeof CompleteTaskRequest>;

export const TaskProgressRequest = z
  .strictObject({
    progress: z.number().min(0).max(1),
    detail: freeText().max(500).optional(),
    migration: MigrationProgress.optional(),
  })
  .openapi('TaskProgressRequest');
export type TaskProgressRequest = z.infer<typeof TaskProgressRequest>;

export const ObservedInstanceState = z.enum(['starting', 'running', 'crashed', 'stopped']);
export type ObservedInstanceState = z.infer<typeof ObservedInstanceState>;

export const OpenSlot = z.object({
  slot: z.number().int(),
  state: z.enum(['importing', 'migrating']),
  peerId: safeString().describe('the node it imports from / migrates to'),
});
export type OpenSlot = z.infer<typeof OpenSlot>;

export const ObservedClusterView = z.object({
  myId: safeString(),
  role: InstanceRole,
  state: z.enum(['ok', 'fail']),
  knownNodes: z.number().int(),
  slotsAssigned: z.number().int(),
  primaryId: safeString().nullable().describe('for a replica: the node id of its primary'),
  primaryLinkUp: z.boolean().nullable(),
  /** Slots this instance owns (a primary serving data has > 0). */
  slotsOwned: z.number().int().default(0),
  openSlots: z.array(OpenSlot).default([]),
  /** Replication offset: master_repl_offset on a primary, slave_repl_offset on a replica. */
  replOffset: z.number().nullable().default(null),
  /** For a replica whose link is down: seconds since it went down; -1 when it never connected since start. */
  linkDownSinceSec: z.number().nullable().default(null),
  syncInProgress: z.boolean().default(false),
  /** During a full sync: bytes of the primary's snapshot received so far. */
  syncReadBytes: z.number().nullable().optional(),
  /** During a full sync: the snapshot's size when the primary announced it (null with a diskless sync). */
  syncTotalBytes: z.number().nullable().optional(),
  /** Config epoch of this node's slot claim (a replica shows its primary's): a higher epoch supersedes a lower one. */
  configEpoch: z.number().int().default(0),
  /** Redis node ids of the members this engine cannot reach: flagged `fail?` (no answer within the node timeout) or `fail` in its CLUSTER NODES. */
  unreachablePeers: z.array(safeString()).optional(),
  sampledAt: z.number().optional().describe("when the engine was read (ms epoch, the agent's clock): a report may carry a view up to a second old"),
});
export type ObservedClusterView = z.infer<typeof ObservedClusterView>;

export const ObservedInstance = z.object({
  instanceId: Id,
  clusterId: Id,
  port: z.number().int(),
  pid: z.number().int().nullable(),
  state: ObservedInstanceState,
  restarts: z.number().int(),
  lastError: freeText().nullable(),
  cluster: ObservedClusterView.nullable(),
  /** An engine the agent will not restart on its own until the control plane decides (a crashed former primary, or any engine found stopped when the agent started). */
  held: z.boolean().default(false),
  /** When the agent saw the process exit. */
  crashedAt: Timestamp.nullable().default(null),
  /** Digest of the database users the engine was last given (at its start or by sync-users); null: unknown. */
  usersDigest: safeString().max(64).nullish(),
  /** When the certificate the engine serves now expires (TLS instances; null or absent: no TLS, or not known). */
  certificateExpiresAt: Timestamp.nullish(),
  /** Digest (sha256 hex) of the CA file the engine loaded at its start or last reload (TLS instances; null or absent: no TLS, or not known). */
  trustDigest: safeString().max(64).nullish(),
});
export type ObservedInstance = z.infer<typeof ObservedInstance>;

export const AgentStatusReport = z
  .strictObject({
    agentVersion: safeString().max(100),
    memoryMb: z.number().int().min(0).max(2_147_483_647),
    instances: z.array(ObservedInstance),
    sparePorts: z
      .array(z.number().int())
      .optional()
      .describe('ports of warm spare engines (started >2 s ago, not yet part of a cluster) the node can hand to new primaries'),
    endpointPorts: z.array(z.number().int()).optional().describe('cluster endpoint ports this agent is serving (listening on) now'),
  })
  .openapi('AgentStatusReport');

export const AgentEndpoint = z
  .object({
    clusterId: Id,
    port: z.number().int(),
    targets: z.array(z.string()).describe('host:port of the cluster\'s instances on live nodes, primaries first'),
  })
  .openapi('AgentEndpoint');
export type AgentEndpoint = z.infer<typeof AgentEndpoint>;

export const AgentEndpoints = z
  .object({
    host: z.string().nullable().describe('the address clients use for cluster endpoints; null when the installation has none'),
    items: z.array(AgentEndpoint),
  })
  .openapi('AgentEndpoints');
export type AgentEndpoints = z.infer<typeof AgentEndpoints>;
export type AgentStatusReport = z.infer<typeof AgentStatusReport>;
