/**
 * The engine's domain types: what a Redis Cluster is made of, as the
 * planners and the admin client reason about it. The engine owns these;
 * the HTTP contract (`@strata/api`) describes the same shapes on the wire,
 * and `control-plane/src/domain-conformance.ts` fails the type check when
 * the two drift apart.
 */
import type { DatabaseUserAcl } from './redis/database-users';

/** Persistence of one engine: in memory only, AOF fsynced every second, or on every write. */
export const DURABILITIES = ['none', 'aof-everysec', 'aof-always'] as const;
export type Durability = (typeof DURABILITIES)[number];

export const EVICTION_POLICIES = [
  'noeviction',
  'allkeys-lru',
  'allkeys-lfu',
  'allkeys-random',
  'volatile-lru',
  'volatile-lfu',
  'volatile-random',
  'volatile-ttl',
] as const;
export type EvictionPolicy = (typeof EVICTION_POLICIES)[number];

/**
 * Write fencing of a primary: `on` accepts a write only while a replica has
 * acknowledged the stream lately (Redis's min-replicas-to-write), so a
 * primary cut off from its replicas stops acknowledging writes the other
 * side of a partition would discard; `off` keeps Redis's defaults.
 */
export const FENCINGS = ['off', 'on'] as const;
export type Fencing = (typeof FENCINGS)[number];

/** Client certificates (mTLS) of a TLS cluster: `required` has every client present one signed by the cluster's CA. */
export const TLS_CLIENT_AUTHS = ['none', 'optional', 'required'] as const;
export type TlsClientAuth = (typeof TLS_CLIENT_AUTHS)[number];

export type InstanceRole = 'primary' | 'replica';

/** How hard a slot migration may press on the primaries: time budget per batch, parallel pairs, rests. */
export const MIGRATION_PRIORITIES = ['gentle', 'balanced', 'fast'] as const;
export type MigrationPriority = (typeof MIGRATION_PRIORITIES)[number];

/** An inclusive range of hash slots (0..16383). */
export interface SlotRange {
  start: number;
  end: number;
}

/** The two ACL users every engine has (the customer's and Strata's own), and the database users the customer added. */
export interface EngineCredentials {
  customerUser: string;
  customerPassword: string;
  internalUser: string;
  internalPassword: string;
  /** Present when the cluster requires TLS. */
  tls?: {
    /** PEM of the cluster CA: every connection to an instance verifies against it. */
    caCertificate: string;
    /** The certificate (PEM) and key of the instance a task runs. */
    instanceCertificate?: { certificate: string; privateKey: string };
    /** The certificate (PEM) and key Strata's own connections present (a cluster that requires client certificates asks for one). */
    clientCertificate?: { certificate: string; privateKey: string };
    /** The instances' own port still serves plain text (TLS on a second port, or on the cluster bus only). */
    plainPort?: boolean;
  };
  /** Database users (with password hashes only), as desired when the task was handed out. */
  databaseUsers?: DatabaseUserAcl[];
}

/** One engine instance by address. */
export interface ClusterMember {
  instanceId: string;
  host: string;
  port: number;
}

/** One shard of a cluster being formed: its slots, its primary and its replicas. */
export interface FormClusterShard {
  slots: SlotRange[];
  primary: ClusterMember;
  replicas: ClusterMember[];
}

export type ObservedInstanceState = 'starting' | 'running' | 'crashed' | 'stopped';

/** A slot an engine has open for a migration. */
export interface OpenSlot {
  slot: number;
  state: 'importing' | 'migrating';
  /** The node it imports from / migrates to. */
  peerId: string;
}

/** What one engine says about itself and its cluster (CLUSTER INFO / NODES / INFO replication). */
export interface ObservedClusterView {
  myId: string;
  role: InstanceRole;
  state: 'ok' | 'fail';
  knownNodes: number;
  slotsAssigned: number;
  /** For a replica: the node id of its primary. */
  primaryId: string | null;
  primaryLinkUp: boolean | null;
  /** Slots this instance owns (a primary serving data has > 0). */
  slotsOwned: number;
  openSlots: OpenSlot[];
  /** Replication offset: master_repl_offset on a primary, slave_repl_offset on a replica. */
  replOffset: number | null;
  /** For a replica whose link is down: seconds since it went down; -1 when it never connected since start. */
  linkDownSinceSec: number | null;
  syncInProgress: boolean;
  /** During a full sync: bytes of the primary's snapshot received so far. */
  syncReadBytes?: number | null;
  /** During a full sync: the snapshot's size when the primary announced it (null with a diskless sync). */
  syncTotalBytes?: number | null;
  /** Config epoch of this node's slot claim (a replica shows its primary's): a higher epoch supersedes a lower one. */
  configEpoch: number;
  /** Redis node ids of the members this engine cannot reach: flagged `fail?` (no answer within the node timeout) or `fail`. */
  unreachablePeers?: string[];
  /** When the engine was read (ms epoch, the observer's clock): a report may carry a view up to a second old. */
  sampledAt?: number;
}

/** Live progress of a slot migration. */
export interface MigrationProgress {
  slotsDone: number;
  slotsTotal: number;
  keysMoved: number;
  /** Approximate: value sizes as MIGRATE carries them (DUMP payloads). */
  bytesMoved: number;
  /** Over the last few seconds. */
  keysPerSec: number;
  etaSeconds: number | null;
  /** The slot being moved now, if any. */
  currentSlot: number | null;
}

/** Number of latency buckets: bucket i holds calls that took (2^(i-1), 2^i] microseconds. */
export const LATENCY_BUCKET_COUNT = 27;

/** One engine's counters over one interval, as an agent samples them. */
export interface InstanceMetricSample {
  instanceId: string;
  clusterId: string;
  /** Unix ms of the sample, on a whole second. */
  ts: number;
  /** Time the counter deltas cover. */
  intervalMs: number;
  role: InstanceRole;
  /** The engine restarted (or reset its stats) since the previous sample. */
  restarted: boolean;
  reads: number;
  /** On a replica: writes applied from the replication stream. */
  writes: number;
  others: number;
  /** Read+write calls per power-of-two latency bucket in this interval (LATENCY_BUCKET_COUNT long). */
  latency: number[];
  latencySumUs: number;
  clients: number;
  usedMemory: number;
  maxMemory: number;
  keys: number;
  evicted: number;
  expired: number;
  hits: number;
  misses: number;
  netIn: number;
  netOut: number;
  cpuSeconds: number;
  /** On a primary: offset lag of each connected replica. */
  replicas: { host: string; port: number; lagBytes: number }[];
}
