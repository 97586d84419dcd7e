import { z, Id, Timestamp, safeString } from './common';
import { Operation } from './operations';
import { MaintenanceWindow } from './maintenance-window';

export const Durability = z
  .enum(['none', 'aof-everysec', 'aof-always'])
  .describe('none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write');
export type Durability = z.infer<typeof Durability>;

export const Fencing = z
  .enum(['off', 'on'])
  .describe('write fencing. on: a primary accepts a write only while one of its replicas acknowledged the replication stream within the last 2 s (min-replicas-to-write 1, min-replicas-max-lag 2), so a primary cut off from its replicas refuses writes (NOREPLICAS) within about 3 s instead of acknowledging writes a failover on the other side would discard; needs replicasPerShard >= 1, and a shard refuses writes while none of its replicas is connected (after a failover, until the replica is rebuilt). off: Redis defaults');
export type Fencing = z.infer<typeof Fencing>;

export const EvictionPolicy = z.enum([
  'noeviction',
  'allkeys-lru',
  'allkeys-lfu',
  'allkeys-random',
  'volatile-lru',
  'volatile-lfu',
  'volatile-random',
  'volatile-ttl',
]);
export type EvictionPolicy = z.infer<typeof EvictionPolicy>;

export const MigrationPriority = z
  .enum(['gentle', 'balanced', 'fast'])
  .describe('how hard a slot migration may press on the primaries it moves keys between: gentle (smallest steps, one source at a time, rests whenever a primary is busy), balanced (short steps, sources in parallel, rests when a primary is busy), fast (long steps, never rests: requests on moving shards may wait several ms)');
export type MigrationPriority = z.infer<typeof MigrationPriority>;

export const TlsMode = z
  .enum(['off', 'preferred', 'required'])
  .describe('off: plain text; required: TLS only, on the client port and replication (and the cluster bus of a cluster created with TLS), with certificates from the cluster\'s own CA; preferred (valkey-8, by PATCH): both served while clients move, the protocol served before on the instances\' ports and the other on a second port per instance');
export type TlsMode = z.infer<typeof TlsMode>;

/** What a cluster's instances serve, their own port's protocol first (plain+tls: plain text on the port, TLS on a second port). */
export const TlsLayout = z.enum(['plain', 'plain+tls', 'tls+plain', 'tls']);
export type TlsLayout = z.infer<typeof TlsLayout>;

export const TlsClientAuth = z
  .enum(['none', 'optional', 'required'])
  .describe('client certificates (mTLS), only with tls required. none: clients log in with a password over TLS and present no certificate; optional: a client that presents a certificate must present a valid one from the cluster, one without logs in on its password alone (tls-auth-clients optional: roll certificates out before requiring them); required: every connection must also present a certificate signed by the cluster\'s CA (POST /v1/clusters/{id}/client-certificates issues them), else the TLS handshake is refused (tls-auth-clients yes)');
export type TlsClientAuth = z.infer<typeof TlsClientAuth>;

export const ENGINE_VERSIONS = ['7', 'valkey-8'] as const;
export const EngineVersion = z
  .enum(ENGINE_VERSIONS)
  .describe("the engine: 7 is Redis 7.0 (Debian's redis-server); valkey-8 is Valkey 8 (Redis 7.2's protocol and cluster bus, valkey-server). The same clients and commands work with both. Set at create");
export type EngineVersion = z.infer<typeof EngineVersion>;
/** What each engine is called where people read it (console, docs, messages). */
export const ENGINE_LABELS: Record<EngineVersion, string> = { '7': 'Redis 7.0', 'valkey-8': 'Valkey 8' };
export const LIMITS = {
  shards: { min: 1, max: 64 },
  replicasPerShard: { min: 0, max: 5 },
  memoryMbPerShard: { min: 16, max: 65536, default: 256 },
  name: { min: 2, max: 40 },
} as const;

export const ClusterName = safeString()
  .min(LIMITS.name.min)
  .max(LIMITS.name.max)
  .regex(/^[a-z][a-z0-9-]*[a-z0-9]$/, 'lowercase letters, digits and dashes; starts with a letter, ends with a letter or digit');

export const RestoreFrom = z.strictObject({
  backupId: Id.describe('a completed backup of this organization (any shard count)'),
}).openapi('RestoreFrom');
export type RestoreFrom = z.infer<typeof RestoreFrom>;

/** What the user asks for. Defaults are applied by the server and returned in `spec`. */
export const CreateClusterRequest = z
  .strictObject({
    name: ClusterName,
    shards: z.number().int().min(LIMITS.shards.min).max(LIMITS.shards.max),
    replicasPerShard: z.number().int().min(LIMITS.replicasPerShard.min).max(LIMITS.replicasPerShard.max),
    memoryMbPerShard: z
      .number()
      .int()
      .min(LIMITS.memoryMbPerShard.min)
      .max(LIMITS.memoryMbPerShard.max)
      .optional(),
    durability: Durability.optional(),
    evictionPolicy: EvictionPolicy.optional(),
    fencing: Fencing.optional().describe('default off; on needs replicasPerShard >= 1'),
    migrationPriority: MigrationPriority.optional().describe('default balanced'),
    engineVersion: EngineVersion.optional().describe('default 7 (Redis 7.0); set at create'),
    tls: TlsMode.optional().describe('default off; off or required at create (preferred is a stage of an in-place switch, by PATCH on valkey-8)'),
    tlsClientAuth: TlsClientAuth.optional().describe('default none; optional and required need tls required'),
    restoreFrom: RestoreFrom.optional().describe("start with the data of a backup; shards, replicas and memory may differ from the backup's"),
    maintenanceWindow: MaintenanceWindow.nullable().optional().describe('weekly window (UTC) in which changes that restart engines run; default none'),
  })
  .openapi('CreateClusterRequest');
export type CreateClusterRequest = z.infer<typeof CreateClusterRequest>;

export const ClusterSpec = z
  .object({
    shards: z.number().int(),
    replicasPerShard: z.number().int(),
    memoryMbPerShard: z.number().int(),
    durability: Durability,
    evictionPolicy: EvictionPolicy,
    fencing: Fencing,
    migrationPriority: MigrationPriority,
    engineVersion: EngineVersion,
    tls: TlsMode,
    tlsClientAuth: TlsClientAuth,
    maintenanceWindow: MaintenanceWindow.nullable().describe('weekly window (UTC) in which changes that restart engines run (null: none; they run when asked)'),
  })
  .openapi('ClusterSpec');
export type ClusterSpec = z.infer<typeof ClusterSpec>;

export const ClusterPhase = z.enum(['provisioning', 'ready', 'updating', 'degraded', 'deleting', 'failed']);
export type ClusterPhase = z.infer<typeof ClusterPhase>;

export const Condition = z
  .object({
    type: z.string().describe('e.g. InstancesRunning, ClusterFormed, Healthy'),
    status: z.enum(['true', 'false', 'unknown']),
    reason: z.string(),
    message: z.string(),
    lastTransitionAt: Timestamp,
  })
  .openapi('Condition');
export type Condition = z.infer<typeof Condition>;

export const ClusterStatus = z.object({
  phase: ClusterPhase,
  conditions: z.array(Condition),
});
export type ClusterStatus = z.infer<typeof ClusterStatus>;

export const Cluster = z
  .object({
    id: Id,
    name: z.string(),
    organizationId: Id,
    spec: ClusterSpec,
    generation: z.number().int().describe('bumped by every spec change'),
    observedGeneration: z.number().int().describe('the generation the reconciler last brought the cluster to'),
    status: ClusterStatus,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Cluster');
export type Cluster = z.infer<typeof Cluster>;

export const ClusterList = z.object({ items: z.array(Cluster) }).openapi('ClusterList');
export type ClusterList = z.infer<typeof ClusterList>;

export const ClusterWithOperation = z
  .object({ cluster: Cluster, operation: Operation })
  .openapi('ClusterWithOperation');
export type ClusterWithOperation = z.infer<typeof ClusterWithOperation>;

export const InstanceRole = z.enum(['primary', 'replica']);
export type InstanceRole = z.infer<typeof InstanceRole>;
export const InstanceHealth = z.enum(['healthy', 'starting', 'down', 'unknown']);
export type InstanceHealth = z.infer<typeof InstanceHealth>;

export const TopologyInstance = z
  .object({
    id: Id,
    nodeId: Id,
    nodeName: z.string(),
    address: z.string().describe('host:port'),
    role: InstanceRole.describe('the role it has now (follows failovers)'),
    preferredRole: InstanceRole.describe('the role placement gave it; Strata moves primaries back to these after a failover'),
    observedRole: InstanceRole.nullable().describe('what the instance itself says, when its node reports'),
    health: InstanceHealth,
    sync: z
      .object({ receivedBytes: z.number(), totalBytes: z.number().nullable() })
      .nullable()
      .describe('a replica in a full sync from its primary (e.g. a copy being rebuilt): bytes received and, when known, the total'),
  })
  .openapi('TopologyInstance');
export type TopologyInstance = z.infer<typeof TopologyInstance>;

export const SlotRange = z.object({ start: z.number().int(), end: z.number().int() }).openapi('SlotRange');
export type SlotRange = z.infer<typeof SlotRange>;

export const TopologyShard = z
  .object({
    index: z.number().int(),
    slots: z.array(SlotRange),
    instances: z.array(TopologyInstance),
  })
  .openapi('TopologyShard');
export type TopologyShard = z.infer<typeof TopologyShard>;

export const Topology = z
  .object({ clusterId: Id, shards: z.array(TopologyShard) })
  .openapi('Topology');
export type Topology = z.infer<typeof Topology>;

export const Connection = z
  .object({
    uri: z.string().describe('redis:// (rediss:// when TLS is required) USER:PASSWORD@HOST:PORT of the cluster\'s stable endpoint (or of one primary when the installation has no endpoint host); Redis Cluster clients discover the rest. While tls is preferred: plain text (redis://)'),
    tlsUri: z.string().nullable().describe('rediss:// URI while TLS is served (with caCertificate): the same as uri when tls is required; while tls is preferred, the TLS one beside the plain uri (on the port that serves TLS: the endpoint or a primary\'s second port); null when TLS is off'),
    seeds: z.array(z.string()).describe('host:port of every primary'),
    username: z.string(),
    password: z.string(),
    endpoint: z
      .object({
        host: z.string(),
        port: z.number().int(),
        servedBy: z.array(z.string()).describe('names of the nodes whose agents serve the endpoint now'),
      })
      .nullable()
      .describe('the stable endpoint: served by whichever agents are alive, it forwards a connection to a live instance; it outlives the loss of any node'),
    tls: TlsMode,
    tlsClientAuth: TlsClientAuth.describe('required: connect with a client certificate from POST /v1/clusters/{id}/client-certificates as well as the password; optional: a certificate is verified when presented, the password alone also works'),
    caCertificate: z.string().nullable().describe("PEM of the cluster's CA, which signed every instance's certificate (null when TLS is off)"),
    tlsServed: TlsLayout.describe("what the instances serve now, their own port's protocol first (plain+tls: plain text on the port, TLS on a second port); during a switch it follows the stages"),
  })
  .openapi('Connection');
export type Connection = z.infer<typeof Connection>;
