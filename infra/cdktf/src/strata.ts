/** Typed constructs for terraform-provider-strata (infra/terraform-provider-strata). */
import { Token, type IResolvable, type TerraformMetaArguments } from 'cdktf';
import type { Construct } from 'constructs';
import { BoundDataSource, BoundProvider, BoundResource } from './bindings';

export const STRATA_PROVIDER_SOURCE = 'strata/strata';

export interface StrataProviderConfig {
  /** Default: STRATA_ENDPOINT. */
  endpoint?: string;
  /** Default: STRATA_TOKEN. */
  token?: string;
  alias?: string;
}

export class StrataProvider extends BoundProvider<StrataProviderConfig> {
  constructor(scope: Construct, id: string, config: StrataProviderConfig = {}, version?: string) {
    super(scope, id, 'strata', STRATA_PROVIDER_SOURCE, version, config);
  }
}

export type Durability = 'none' | 'aof-everysec' | 'aof-always';
export type EvictionPolicy = 'noeviction' | 'allkeys-lru' | 'allkeys-lfu' | 'allkeys-random' | 'volatile-lru' | 'volatile-lfu' | 'volatile-random' | 'volatile-ttl';

export type MigrationPriority = 'gentle' | 'balanced' | 'fast';

export interface StrataClusterConfig {
  name: string;
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard?: number;
  durability?: Durability;
  evictionPolicy?: EvictionPolicy;
  /** Write fencing (default off): on, a primary cut off from its replicas refuses writes; needs replicasPerShard >= 1. */
  fencing?: 'off' | 'on';
  /** How hard slot moves press on the primaries (default balanced). */
  migrationPriority?: MigrationPriority;
  /** Weekly window (UTC) in which rolling restarts run unless forced; unset: none. */
  maintenanceWindow?: { dayOfWeek: 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'; startTime: string; durationMinutes: number };
  engineVersion?: '7' | 'valkey-8';
  /** off, preferred (both served while clients move) or required (TLS only); default off. In place on valkey-8, a new cluster on 7. */
  tls?: 'off' | 'preferred' | 'required';
  /** Scheduled backups and retention (in place): exactly one of intervalHours and dailyAt (HH:MM UTC); at most one of keepLast and keepDays. Unset: no schedule. */
  backup?: { intervalHours?: number; dailyAt?: string; keepLast?: number; keepDays?: number; consistent?: boolean };
  /** Id of a completed backup the new cluster starts with (any shape); changing it creates a new cluster. */
  restoreFrom?: string;
  /** Clients also present a certificate signed by the cluster's CA (default none; needs tls required); changes in place. */
  tlsClientAuth?: 'none' | 'optional' | 'required';
  /**
   * Rotates the CA in place (tls required) whenever `trigger` changes (not at create); the old CA stays trusted
   * `retireAfterSeconds` (0-2592000, default 3600) once every instance serves the new one.
   */
  caRotation?: { trigger: string; retireAfterSeconds?: number };
  waitForReady?: boolean;
  timeouts?: { create?: string; update?: string; delete?: string };
}

/** strata_cluster: shards, replicas, memory, durability, eviction, fencing, migration priority, maintenance window and backup schedule change in place. */
export class StrataCluster extends BoundResource<StrataClusterConfig> {
  static readonly tfResourceType = 'strata_cluster';
  /** Every attribute this binding writes or reads, as the provider names it (checked against `terraform providers schema -json`). */
  static readonly tfAttributes = ['name', 'shards', 'replicas_per_shard', 'memory_mb_per_shard', 'durability', 'eviction_policy', 'fencing', 'migration_priority', 'maintenance_window',
    'engine_version', 'tls', 'tls_client_auth', 'ca_rotation', 'backup', 'restore_from', 'wait_for_ready', 'timeouts', 'id', 'status', 'connection_uri', 'username', 'password', 'seeds', 'ca_certificate'] as const;
  constructor(scope: Construct, id: string, config: StrataClusterConfig & TerraformMetaArguments) {
    super(scope, id, StrataCluster.tfResourceType, 'strata', config);
  }
  get clusterId(): string { return this.getStringAttribute('id'); }
  get status(): string { return this.getStringAttribute('status'); }
  get connectionUri(): string { return this.getStringAttribute('connection_uri'); }
  get username(): string { return this.getStringAttribute('username'); }
  get password(): string { return this.getStringAttribute('password'); }
  get seeds(): string[] { return this.getListAttribute('seeds'); }
  /** PEM of the cluster's CA when tls is required (during a CA rotation, both CAs). */
  get caCertificate(): string { return this.getStringAttribute('ca_certificate'); }
}

export type Scope = 'clusters:read' | 'clusters:write' | 'benchmarks:run' | 'admin';

export interface StrataApiTokenConfig {
  name: string;
  scopes: Scope[];
  /** RFC 3339. */
  expiresAt?: string;
}

/** strata_api_token: the secret is `token` (sensitive). */
export class StrataApiToken extends BoundResource<StrataApiTokenConfig> {
  static readonly tfResourceType = 'strata_api_token';
  static readonly tfAttributes = ['name', 'scopes', 'expires_at', 'id', 'token', 'created_at', 'created_by'] as const;
  constructor(scope: Construct, id: string, config: StrataApiTokenConfig & TerraformMetaArguments) {
    super(scope, id, StrataApiToken.tfResourceType, 'strata', config);
  }
  get tokenId(): string { return this.getStringAttribute('id'); }
  get token(): string { return this.getStringAttribute('token'); }
  get createdAt(): string { return this.getStringAttribute('created_at'); }
  get createdBy(): string { return this.getStringAttribute('created_by'); }
}

export interface StrataNotificationChannelConfig {
  type: 'webhook' | 'email';
  name?: string;
  /** webhook: the http(s) URL. */
  url?: string;
  /** webhook: the HMAC-SHA256 key of X-Strata-Signature (write-only in the API). */
  secret?: string;
  /** webhook: json (default) or slack. */
  format?: 'json' | 'slack';
  /** email: the recipients. */
  to?: string[];
}

/** strata_notification_channel: any change creates a new channel. */
export class StrataNotificationChannel extends BoundResource<StrataNotificationChannelConfig> {
  static readonly tfResourceType = 'strata_notification_channel';
  static readonly tfAttributes = ['type', 'name', 'url', 'secret', 'format', 'to', 'id', 'created_at'] as const;
  constructor(scope: Construct, id: string, config: StrataNotificationChannelConfig & TerraformMetaArguments) {
    super(scope, id, StrataNotificationChannel.tfResourceType, 'strata', config);
  }
  get channelId(): string { return this.getStringAttribute('id'); }
  get createdAt(): string { return this.getStringAttribute('created_at'); }
}

export type AlertMetric = 'memory_used_percent' | 'ops_per_sec' | 'latency_p99_ms' | 'replication_lag_bytes' | 'connected_clients' | 'evictions'
  | 'cluster_degraded' | 'failover' | 'node_down' | 'backup_failed';

export interface StrataAlertRuleConfig {
  /** Omit for an organization rule (every cluster). */
  clusterId?: string;
  name?: string;
  metric: AlertMetric;
  threshold: number;
  forSeconds: number;
  channelIds?: string[];
  enabled?: boolean;
}

/** strata_alert_rule: threshold, for_seconds, channels, name and enabled change in place. */
export class StrataAlertRule extends BoundResource<StrataAlertRuleConfig> {
  static readonly tfResourceType = 'strata_alert_rule';
  static readonly tfAttributes = ['cluster_id', 'name', 'metric', 'threshold', 'for_seconds', 'channel_ids', 'enabled', 'id', 'created_at'] as const;
  constructor(scope: Construct, id: string, config: StrataAlertRuleConfig & TerraformMetaArguments) {
    super(scope, id, StrataAlertRule.tfResourceType, 'strata', config);
  }
  get ruleId(): string { return this.getStringAttribute('id'); }
  get ruleName(): string { return this.getStringAttribute('name'); }
}

export type DatabaseUserPreset = 'read-only' | 'read-write' | 'read-write-safe';

export interface StrataDatabaseUserConfig {
  clusterId: string;
  name: string;
  preset: DatabaseUserPreset;
  /** Key globs (e.g. orders:*); every key when absent. */
  keyPatterns?: string[];
  /** Pub/Sub channel globs; every channel when absent. */
  channelPatterns?: string[];
  /** At least 16 characters; generated when absent. */
  password?: string;
}

/** strata_database_user: a Redis ACL user on every instance of a cluster; the password is `password` (sensitive). */
export class StrataDatabaseUser extends BoundResource<StrataDatabaseUserConfig> {
  static readonly tfResourceType = 'strata_database_user';
  static readonly tfAttributes = ['cluster_id', 'name', 'preset', 'key_patterns', 'channel_patterns', 'password', 'id', 'created_at'] as const;
  constructor(scope: Construct, id: string, config: StrataDatabaseUserConfig & TerraformMetaArguments) {
    super(scope, id, StrataDatabaseUser.tfResourceType, 'strata', config);
  }
  get userId(): string { return this.getStringAttribute('id'); }
  get password(): string { return this.getStringAttribute('password'); }
  get createdAt(): string { return this.getStringAttribute('created_at'); }
}

export interface StrataClientCertificateConfig {
  /** A cluster with tls required. */
  clusterId: string;
  /** Its subject's common name: 1-64 letters, digits, _ . -. */
  name: string;
  /** 1-3650 (default 365). */
  validityDays?: number;
}

/** strata_client_certificate: a client certificate (mTLS) of a TLS cluster; its key is `privateKeyPem` (sensitive), destroy revokes it. */
export class StrataClientCertificate extends BoundResource<StrataClientCertificateConfig> {
  static readonly tfResourceType = 'strata_client_certificate';
  static readonly tfAttributes = ['cluster_id', 'name', 'validity_days', 'id', 'serial_number', 'created_at', 'expires_at', 'revocable', 'certificate_pem', 'private_key_pem'] as const;
  constructor(scope: Construct, id: string, config: StrataClientCertificateConfig & TerraformMetaArguments) {
    super(scope, id, StrataClientCertificate.tfResourceType, 'strata', config);
  }
  get certificateId(): string { return this.getStringAttribute('id'); }
  /** PEM of the certificate (client.crt). */
  get certificatePem(): string { return this.getStringAttribute('certificate_pem'); }
  /** PEM of its private key (client.key), known only to the state that created it. */
  get privateKeyPem(): string { return this.getStringAttribute('private_key_pem'); }
  get serialNumber(): string { return this.getStringAttribute('serial_number'); }
  get expiresAt(): string { return this.getStringAttribute('expires_at'); }
}

/** data "strata_cluster": by id or name. */
export class DataStrataCluster extends BoundDataSource<{ id?: string; name?: string }> {
  static readonly tfDataSourceType = 'strata_cluster';
  static readonly tfAttributes = ['id', 'name', 'shards', 'replicas_per_shard', 'memory_mb_per_shard', 'durability', 'eviction_policy', 'fencing', 'migration_priority', 'engine_version', 'tls', 'tls_client_auth',
    'status', 'connection_uri', 'username', 'password', 'seeds', 'ca_certificate'] as const;
  constructor(scope: Construct, id: string, config: { id?: string; name?: string } & TerraformMetaArguments) {
    super(scope, id, DataStrataCluster.tfDataSourceType, 'strata', config);
  }
  get clusterId(): string { return this.getStringAttribute('id'); }
  get clusterName(): string { return this.getStringAttribute('name'); }
  get shards(): number { return this.getNumberAttribute('shards'); }
  get replicasPerShard(): number { return this.getNumberAttribute('replicas_per_shard'); }
  get memoryMbPerShard(): number { return this.getNumberAttribute('memory_mb_per_shard'); }
  get durability(): string { return this.getStringAttribute('durability'); }
  get evictionPolicy(): string { return this.getStringAttribute('eviction_policy'); }
  get fencing(): string { return this.getStringAttribute('fencing'); }
  get migrationPriority(): string { return this.getStringAttribute('migration_priority'); }
  get engineVersion(): string { return this.getStringAttribute('engine_version'); }
  get status(): string { return this.getStringAttribute('status'); }
  get connectionUri(): string { return this.getStringAttribute('connection_uri'); }
  get username(): string { return this.getStringAttribute('username'); }
  get password(): string { return this.getStringAttribute('password'); }
  get seeds(): string[] { return this.getListAttribute('seeds'); }
}

/** data "strata_backup": a backup by id (restore it with StrataCluster's restoreFrom). */
export class DataStrataBackup extends BoundDataSource<{ id: string }> {
  static readonly tfDataSourceType = 'strata_backup';
  static readonly tfAttributes = ['id', 'cluster_id', 'cluster_name', 'cluster_deleted', 'status', 'consistent', 'shards', 'size_bytes', 'keys', 'engine_version',
    'started_at', 'finished_at', 'expires_at', 'error'] as const;
  constructor(scope: Construct, id: string, config: { id: string } & TerraformMetaArguments) {
    super(scope, id, DataStrataBackup.tfDataSourceType, 'strata', config);
  }
  get backupId(): string { return this.getStringAttribute('id'); }
  /** running, completed or failed. */
  get status(): string { return this.getStringAttribute('status'); }
  get clusterName(): string { return this.getStringAttribute('cluster_name'); }
  get shards(): number { return this.getNumberAttribute('shards'); }
  get sizeBytes(): number { return this.getNumberAttribute('size_bytes'); }
  get keys(): number { return this.getNumberAttribute('keys'); }
  get finishedAt(): string { return this.getStringAttribute('finished_at'); }
}

/** data "strata_nodes". */
export class DataStrataNodes extends BoundDataSource<object> {
  static readonly tfDataSourceType = 'strata_nodes';
  static readonly tfAttributes = ['scope', 'nodes'] as const;
  /** The attributes of each element of `nodes`. */
  static readonly tfNodeAttributes = ['id', 'name', 'address', 'status', 'draining', 'memory_mb', 'used_memory_mb', 'instances'] as const;
  constructor(scope: Construct, id: string, config: TerraformMetaArguments = {}) {
    super(scope, id, DataStrataNodes.tfDataSourceType, 'strata', config);
  }
  /** `fleet` (a platform admin's token: every node, with capacity) or `organization` (nodes running your clusters; memory_mb and used_memory_mb null). */
  get scope(): string { return this.getStringAttribute('scope'); }
  /** The list of nodes (objects with id, name, address, status, draining, memory_mb, used_memory_mb, instances). */
  get nodes(): IResolvable { return Token.asAny(this.interpolationForAttribute('nodes')) as IResolvable; }
}
