/**
 * The one route table: one declaration per operation (method, path, who may call it, request and
 * response schemas). The control plane mounts every Express route from it by name
 * (control-plane/src/http/operation-router.ts: mountOperation / mountRaw) and openapi.ts documents
 * every entry, so the router and openapi.json cannot drift; route-table.test.ts checks that every
 * served route came from here and every entry is served. The typed client
 * (`@strata/api/client`) is generated from the resulting openapi.json.
 *
 * Adding a route: add an entry here, mount it by name in a `*.routes.ts` file, run
 * `npm run generate -w @strata/api` (openapi.json and the client types).
 */
import { z } from './common';
import {
  ApiToken, ApiTokenInfo, ApiTokenList, AuditList, AuditQuery, CreateOrganizationRequest, CreateOrganizationResponse, CreateTokenRequest, CreateUserRequest,
  LoginRequest, Session, UpdateUserRequest, User, UserList, type Scope,
} from './auth';
import { Cluster, ClusterList, ClusterWithOperation, Connection, CreateClusterRequest, Topology } from './clusters';
import { Operation, OperationList } from './operations';
import {
  BackupList, BackupResponse, BackupSchedule, BackupScheduleResponse, BackupStorage, CreateBackupRequest, ImportBackupRequest, ListBackupsQuery, SetBackupStorageRequest, UploadBackupQuery,
} from './backups';
import { ClientCertificate, ClientCertificateList, ClientCertificateWithKey, CreateClientCertificateRequest } from './client-certificates';
import { CreateDatabaseUserRequest, DatabaseUserList, DatabaseUserWithPassword, RotateDatabaseUserRequest } from './database-users';
import { ClusterEventList, ClusterEventQuery } from './events';
import { ClusterUpdateAccepted, RestartClusterRequest, RotateCaRequest, UpdateClusterApplied, SwitchoverRequest, UpdateClusterDryRun, UpdateClusterQuery, UpdateClusterRequest } from './topology';
import { Heat, HeatQuery, KeyScan, KeyScanList, KeyScanParamsPath, KeyScanRequest, SlowLog, SlowLogQuery, SlowLogReset } from './diagnostics';
import { CreateJoinTokenRequest, JoinToken, NodeCredentialRevoked, NodeList } from './nodes';
import {
  LiveClusterActivityEvent, LiveClusterDeletedEvent, LiveClusterEvent, LiveOperationEvent, LiveResyncEvent, LiveTopologyEvent,
} from './live';
import { Capacity, CapacityQuery } from './capacity';
import {
  AgentEndpoints, AgentStatusReport, CompleteTaskRequest, HeartbeatResponse, LeaseTaskResponse, RegisterAgentRequest, RegisterAgentResponse, TaskProgressRequest,
} from './agent';
import {
  AgentMetricsBatch, ClusterCurrentMetricsList, ClusterMetricsQuery, MetricsResult, MetricsStreamEvent, MetricsStreamQuery, NodeCurrentMetricsList, NodeMetricsQuery,
} from './metrics';
import {
  DiskProfile, DiskProfileAccepted, DiskProfileCommand, DiskProfileList, DiskProfileProgressEvent, DiskProfileReport, DiskProfileRequest, DiskProfileStreamEnd, DurabilityAdviceList,
} from './disk-profiles';
import {
  AlertList, AlertQuery, AlertRule, AlertRuleList, PrometheusRuleFile, CreateAlertRuleRequest, CreateNotificationChannelRequest, DeliveryList, Delivery, NotificationChannel,
  NotificationChannelList, UpdateAlertRuleRequest,
} from './alerts';
import { Benchmark, BenchmarkList, BenchmarkProgressEvent, BenchmarkRequest, BenchmarkStreamEnd, BenchmarkWorkerCommand, BenchmarkWorkerReport } from './benchmarks';

type StandardError = 400 | 401 | 403 | 404;

export interface ResponseDef {
  status: 200 | 201 | 202 | 204;
  /** The JSON body (absent: no body). */
  schema?: z.ZodType;
  description?: string;
  /** Other media types than JSON (text, CSV): media type -> schema. */
  content?: Record<string, z.ZodType>;
  /**
   * A server-sent event stream (text/event-stream): SSE event name -> the JSON its `data:` holds
   * (a schema with a refId: openapi.json documents it as a component and points at it from the event).
   */
  events?: Record<string, z.ZodType>;
  /** The stream's events carry an `id:`. */
  eventIds?: true;
  headers?: Record<string, { schema: { type: 'string' } }>;
}

export interface OperationDef {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI style, e.g. /v1/tokens/{id}; `{id}` is a UUID. */
  path: string;
  summary: string;
  /**
   * Who may call it: `user` (default: a session or API token, checked against `scope`), `node` (an
   * agent's node credential), `scrape` (the Prometheus scrape token) or `none` (sign-in, health).
   */
  auth?: 'user' | 'node' | 'scrape' | 'none';
  /** The scope a user route needs (`self`: any signed-in user, or a token with the admin scope). */
  scope?: Scope | 'self';
  /** Platform administrators only (besides the scope). */
  platformAdmin?: true;
  /** Path parameters, when not just a UUID `{id}`. */
  params?: z.ZodObject;
  body?: z.ZodType;
  /** A body that is not JSON, streamed to the handler as it arrives (an uploaded file): its media type and what it is. */
  rawBody?: { mediaType: 'application/octet-stream'; description: string };
  /** Validates the query string (and documents it unless `queryDoc` is given). */
  query?: z.ZodType;
  /** How openapi.json shows the query when the validating schema does not render well (comma lists). */
  queryDoc?: z.ZodObject;
  success: ResponseDef;
  /** A second success response (e.g. 200 for a dry run besides 202). */
  also?: ResponseDef;
  /** The standard problems documented (default: 400 with a body or query, 401, 403 and 404 with an `{id}`). */
  errors?: readonly StandardError[];
  /** Extra documented problems (or other descriptions for standard ones). */
  problems?: Record<number, string>;
}

const op = <T extends OperationDef>(o: T) => o;

const ALL = [400, 401, 403, 404] as const;
const SIGNED_IN = [401] as const;
const accepted = () => ({
  status: 202, schema: ClusterWithOperation, description: 'Accepted; follow the operation at Location', headers: { Location: { schema: { type: 'string' } } },
}) as const satisfies ResponseDef;
const NodeDrainState = z.object({ id: z.string(), name: z.string(), draining: z.boolean() });
const operationControl = (action: 'pause' | 'resume' | 'cancel') => op({
  method: 'post', path: `/v1/operations/{id}/${action}`, summary: `${action[0]!.toUpperCase()}${action.slice(1)} a running topology change (update-cluster)${action === 'cancel' ? ', or a rolling restart still waiting for the maintenance window' : ''}`,
  scope: 'clusters:write', errors: ALL, success: { status: 200, schema: Operation }, problems: { 409: 'Not an unfinished update, or past its point of no return' },
});
const metricsQueryDoc = z.object({
  metric: z.string().describe('comma-separated: ops, ops_read, ops_write, ops_other, latency_p50, latency_p95, latency_p99, latency_p999, clients, memory_used, memory_max, keys, evictions, expirations, hits, misses, repl_lag, net_in, net_out, cpu'),
  from: z.string().optional().describe('RFC 3339, unix seconds or relative ("-1h"); default 5 minutes before `to`'),
  to: z.string().optional().describe('default now'),
  step: z.string().optional().describe('seconds per point; default keeps ~600 points'),
  by: z.enum(['cluster', 'shard', 'instance']).optional(),
});

/** In the order openapi.json lists them. */
export const OPERATION_TABLE = {
  // Clusters and their operations
  createCluster: op({
    method: 'post', path: '/v1/clusters', summary: 'Create a cluster', scope: 'clusters:write', body: CreateClusterRequest, errors: ALL,
    success: accepted(),
    problems: { 409: 'A cluster with this name exists (code name_taken)', 422: 'The spec cannot be placed on the available nodes (code unplaceable); restoreFrom names a backup that cannot be restored into this spec (codes backup_not_completed, restore_memory_too_small, backup_corrupted, rdb_version_unsupported)' },
  }),
  listClusters: op({ method: 'get', path: '/v1/clusters', summary: 'List clusters', scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: ClusterList } }),
  getCluster: op({ method: 'get', path: '/v1/clusters/{id}', summary: 'Get a cluster', scope: 'clusters:read', errors: ALL, success: { status: 200, schema: Cluster } }),
  updateCluster: op({
    method: 'patch', path: '/v1/clusters/{id}', summary: 'Change shards, replicas, memory, durability or eviction online; ?dryRun=true returns the plan and changes nothing',
    scope: 'clusters:write', query: UpdateClusterQuery, body: UpdateClusterRequest, errors: ALL,
    success: { status: 202, schema: ClusterUpdateAccepted, description: 'Accepted: the change runs as an operation' },
    also: { status: 200, schema: z.union([UpdateClusterDryRun, UpdateClusterApplied]), description: 'Dry run: the plan; or maintenanceWindow alone: applied at once' },
    problems: {
      409: 'Another change is running (code operation_in_progress, with operationId), or the cluster is not ready',
      422: 'The nodes cannot hold it (code unplaceable) or the data would not fit (code does_not_fit)',
    },
  }),
  switchover: op({
    method: 'post', path: '/v1/clusters/{id}/shards/{index}/switchover', summary: 'Promote a replica of one shard without losing acknowledged writes', scope: 'clusters:write',
    params: z.object({ id: z.string(), index: z.string() }), body: SwitchoverRequest, errors: ALL,
    success: { status: 202, schema: ClusterWithOperation, description: 'Accepted' }, problems: { 409: 'Another change is running', 422: 'No in-sync replica' },
  }),
  restartCluster: op({
    // Per shard, its replicas first (each waited for until back in sync), then its primary hands its role to an in-sync replica
    // (data-safe CLUSTER FAILOVER) and restarts as a replica; the roll pauses while any member is unhealthy.
    method: 'post', path: '/v1/clusters/{id}/restart', summary: 'Rolling restart: every instance once, replicas first, primaries after a data-safe switchover', scope: 'clusters:write',
    body: RestartClusterRequest, errors: ALL, success: { status: 202, schema: ClusterWithOperation, description: "Accepted: the restart-cluster operation (pending with startsAt while it waits for the cluster's maintenance window)" },
    problems: {
      409: 'Another change is running or waiting for the maintenance window (code operation_in_progress), or the cluster is not ready',
      422: 'A shard has no replica and the cluster keeps no append-only file: restarting its primary would lose its data (code would_lose_data); when is maintenance_window but the cluster has none (code no_maintenance_window)',
    },
  }),
  pauseOperation: operationControl('pause'),
  resumeOperation: operationControl('resume'),
  cancelOperation: operationControl('cancel'),
  rotateClusterCa: op({
    // A new CA: trusted beside the old one everywhere, instance certificates re-issued from it (chained to the old one through a
    // cross-certificate, so clients that trust only the old CA keep connecting), then the old CA retired. No restart.
    method: 'post', path: '/v1/clusters/{id}/tls/rotate-ca', summary: "Rotate a TLS cluster's CA in place: new CA trusted, instance certificates re-issued, old CA retired, without a restart",
    scope: 'clusters:write', body: RotateCaRequest, errors: ALL,
    success: { status: 202, schema: ClusterWithOperation, description: 'Accepted: the rotate-ca operation' },
    problems: { 409: 'Another change is running (code operation_in_progress), the cluster is not ready or degraded, or TLS is off (code tls_off)' },
  }),
  deleteCluster: op({
    method: 'delete', path: '/v1/clusters/{id}', summary: 'Delete a cluster', scope: 'clusters:write', errors: ALL,
    success: { status: 202, schema: ClusterWithOperation, description: 'Accepted' },
  }),
  getTopology: op({ method: 'get', path: '/v1/clusters/{id}/topology', summary: 'Shards, slot ranges and instances', scope: 'clusters:read', errors: ALL, success: { status: 200, schema: Topology } }),
  getConnection: op({
    method: 'get', path: '/v1/clusters/{id}/connection', summary: 'Connection string and credentials', scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: Connection }, problems: { 409: 'Cluster is being deleted' },
  }),
  getClusterCa: op({
    method: 'get', path: '/v1/clusters/{id}/ca.pem', summary: "The cluster's CA certificate (PEM), for clients that verify TLS", scope: 'clusters:read', errors: ALL,
    success: { status: 200, description: 'application/x-pem-file', content: { 'application/x-pem-file': z.string() } },
    problems: { 409: 'TLS is off for this cluster (code tls_off)' },
  }),
  createClientCertificate: op({
    method: 'post', path: '/v1/clusters/{id}/client-certificates', summary: "Issue a client certificate signed by the cluster's CA (mTLS); its private key is shown once",
    scope: 'clusters:write', body: CreateClientCertificateRequest, errors: ALL,
    success: { status: 201, schema: ClientCertificateWithKey, description: 'Issued; Strata records its name, serial and expiry, never the key' },
    problems: { 422: 'TLS is off for this cluster (code tls_off, field tls)', 409: 'The cluster is being deleted or failed (code invalid_state)' },
  }),
  listClientCertificates: op({
    method: 'get', path: '/v1/clusters/{id}/client-certificates', summary: "The client certificates issued for a cluster, revoked ones included (never their keys)", scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: ClientCertificateList },
  }),
  revokeClientCertificate: op({
    method: 'post', path: '/v1/clusters/{id}/client-certificates/{certificateId}/revoke',
    summary: 'Revoke a client certificate: every instance stops trusting it within seconds (refused at the TLS handshake; open connections stay), without a restart',
    scope: 'clusters:write', params: z.object({ id: z.string(), certificateId: z.string() }), errors: ALL,
    success: { status: 200, schema: ClientCertificate, description: 'Revoked (again: unchanged); applied turns true once every instance has dropped it' },
    problems: { 409: 'Signed by the cluster\'s CA itself: it cannot be revoked (code not_revocable), or the cluster is being deleted or failed (code invalid_state)' },
  }),
  listClusterOperations: op({
    method: 'get', path: '/v1/clusters/{id}/operations', summary: "A cluster's operations, newest first", scope: 'clusters:read', errors: ALL, success: { status: 200, schema: OperationList },
  }),
  listClusterEvents: op({
    method: 'get', path: '/v1/clusters/{id}/events', summary: "A cluster's events (failovers, restarts, data loss, rebalancing, slot repair), newest first, paged",
    scope: 'clusters:read', query: ClusterEventQuery, errors: ALL, success: { status: 200, schema: ClusterEventList },
  }),
  // Diagnostics
  getSlowLog: op({
    method: 'get', path: '/v1/clusters/{id}/diagnostics/slowlog', summary: 'The slow log of every instance, merged: newest first', scope: 'clusters:read',
    query: SlowLogQuery, errors: ALL, success: { status: 200, schema: SlowLog },
  }),
  resetSlowLog: op({
    method: 'post', path: '/v1/clusters/{id}/diagnostics/slowlog/reset', summary: 'Empty the slow log of every instance (SLOWLOG RESET)', scope: 'clusters:write',
    errors: ALL, success: { status: 200, schema: SlowLogReset },
  }),
  startKeyScan: op({
    method: 'post', path: '/v1/clusters/{id}/diagnostics/key-scans',
    summary: "Find each shard's biggest keys (SCAN + MEMORY USAGE) and, under an LFU eviction policy, its hottest (OBJECT FREQ): throttled, bounded in time",
    scope: 'clusters:write', body: KeyScanRequest, errors: ALL,
    success: { status: 202, schema: KeyScan, description: 'Accepted; follow the scan at Location', headers: { Location: { schema: { type: 'string' } } } },
    problems: { 409: 'The cluster is not ready or a scan of it is running (code scan_in_progress)' },
  }),
  listKeyScans: op({
    method: 'get', path: '/v1/clusters/{id}/diagnostics/key-scans', summary: "A cluster's key scans, newest first (the last 20)", scope: 'clusters:read',
    errors: ALL, success: { status: 200, schema: KeyScanList },
  }),
  getKeyScan: op({
    method: 'get', path: '/v1/clusters/{id}/diagnostics/key-scans/{scanId}', summary: 'A key scan: progress per shard, then its big and hot keys', scope: 'clusters:read',
    params: KeyScanParamsPath, errors: ALL, success: { status: 200, schema: KeyScan },
  }),
  getHeat: op({
    method: 'get', path: '/v1/clusters/{id}/diagnostics/heat', summary: 'Ops/s and memory per shard side by side, with how uneven they are', scope: 'clusters:read',
    query: HeatQuery, errors: ALL, success: { status: 200, schema: Heat },
  }),
  startBackup: op({
    method: 'post', path: '/v1/clusters/{id}/backups', summary: 'Back up a cluster now: one snapshot per shard (from an in-sync replica where there is one) and a manifest',
    scope: 'clusters:write', body: CreateBackupRequest, errors: ALL,
    success: { status: 202, schema: BackupResponse, description: 'Accepted; follow the backup at Location', headers: { Location: { schema: { type: 'string' } } } },
    problems: { 409: 'The cluster is not ready, or a backup of it is already running (code backup_in_progress)', 422: 'The cluster runs an engine whose snapshots Strata cannot restore yet (code backup_engine_unsupported)' },
  }),
  importBackup: op({
    method: 'post', path: '/v1/backups/import', summary: 'Import a running Redis or Redis Cluster as a backup: an RDB of each primary fetched over the replication protocol into the storage, then restorable like any backup',
    scope: 'clusters:write', body: ImportBackupRequest, errors: ALL,
    success: { status: 202, schema: BackupResponse, description: 'Accepted; follow the backup at Location', headers: { Location: { schema: { type: 'string' } } } },
    problems: { 422: 'The source cannot be imported: unreachable (code import_unreachable), not a Redis (import_not_redis), the credentials refused (import_auth_failed), a Redis writing an RDB version newer than the engine loads (rdb_version_unsupported), or one with keys outside database 0 (rdb_databases_unsupported); field url' },
  }),
  uploadBackup: op({
    method: 'post', path: '/v1/backups/upload', summary: 'Upload an RDB file as a backup (streamed into the storage, checked whole), then restorable like any backup',
    scope: 'clusters:write', query: UploadBackupQuery, rawBody: { mediaType: 'application/octet-stream', description: 'the RDB file (e.g. a dump.rdb), as raw bytes' }, errors: [400, 401, 403],
    success: { status: 201, schema: BackupResponse, description: 'Stored and checked: the backup is completed', headers: { Location: { schema: { type: 'string' } } } },
    problems: {
      408: 'No byte of the file arrived for STRATA_BACKUP_UPLOAD_IDLE_TIMEOUT_MS (code request_timeout); the upload\'s total duration is not bounded',
      413: 'The file is larger than the upload limit (code payload_too_large)',
      415: 'The body is not application/octet-stream (code unsupported_media_type)',
      422: 'The file is not a whole RDB: truncated, damaged or not an RDB (code backup_corrupted), of an RDB version newer than the engine loads (rdb_version_unsupported), or with keys outside database 0 (rdb_databases_unsupported)',
    },
  }),
  listBackups: op({
    method: 'get', path: '/v1/backups', summary: "The organization's backups, newest first: every cluster's (deleted clusters' too, until their retention ends), imports and uploads",
    scope: 'clusters:read', query: ListBackupsQuery, errors: [400, 401, 403], success: { status: 200, schema: BackupList },
  }),
  listClusterBackups: op({
    method: 'get', path: '/v1/clusters/{id}/backups', summary: "A cluster's backups, newest first (a deleted cluster's too, until their retention ends)", scope: 'clusters:read', errors: ALL, success: { status: 200, schema: BackupList },
  }),
  getBackupSchedule: op({
    method: 'get', path: '/v1/clusters/{id}/backup-schedule', summary: "A cluster's backup schedule and retention, and when the next scheduled backup starts", scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: BackupScheduleResponse },
  }),
  setBackupSchedule: op({
    method: 'put', path: '/v1/clusters/{id}/backup-schedule', summary: "Set a cluster's backup schedule (every N hours, or daily at HH:MM UTC) and retention (keep the last N, or N days)",
    scope: 'clusters:write', body: BackupSchedule, errors: ALL, success: { status: 200, schema: BackupScheduleResponse },
  }),
  deleteBackupSchedule: op({
    method: 'delete', path: '/v1/clusters/{id}/backup-schedule', summary: 'Stop scheduled backups of a cluster (and its retention: existing backups are kept until deleted)', scope: 'clusters:write', errors: ALL,
    success: { status: 204, description: 'Removed (or there was none)' },
  }),
  getBackup: op({ method: 'get', path: '/v1/backups/{id}', summary: 'Get a backup: status, progress per shard, manifest, failure reason', scope: 'clusters:read', errors: ALL, success: { status: 200, schema: BackupResponse } }),
  cancelBackup: op({
    method: 'post', path: '/v1/backups/{id}/cancel', summary: 'Cancel a running backup: it fails as cancelled and its files are removed', scope: 'clusters:write', errors: ALL,
    success: { status: 200, schema: BackupResponse }, problems: { 409: 'The backup is not running (code invalid_state)' },
  }),
  deleteBackup: op({
    method: 'delete', path: '/v1/backups/{id}', summary: "Delete a backup and its files in the storage", scope: 'clusters:write', errors: ALL,
    success: { status: 204, description: 'Deleted' }, problems: { 409: 'The backup is still running (code backup_running), or a restore still reads it (code backup_in_use, naming the restore\'s operation in operationId)', 502: 'The storage could not delete its files (code storage_unavailable)' },
  }),
  getBackupStorage: op({
    method: 'get', path: '/v1/backup-storage', summary: "Where the organization's backups go: the control plane's directory (default) or S3-compatible storage (the secret is never shown)",
    scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: BackupStorage },
  }),
  setBackupStorage: op({
    method: 'put', path: '/v1/backup-storage', summary: "Send the organization's backups to S3-compatible storage; the bucket and credentials are checked first (a probe object is written and deleted)",
    scope: 'admin', body: SetBackupStorageRequest, errors: [400, 401, 403] as const, success: { status: 200, schema: BackupStorage },
    problems: { 422: 'The storage cannot be used: unreachable, no such bucket, or the credentials refused (code storage_invalid, field named)' },
  }),
  deleteBackupStorage: op({
    method: 'delete', path: '/v1/backup-storage', summary: "Send new backups to the control plane's directory again (existing backups stay where they are)",
    scope: 'admin', errors: [401, 403] as const, success: { status: 204, description: 'Done' },
  }),
  // Database users of a cluster
  createDatabaseUser: op({
    method: 'post', path: '/v1/clusters/{id}/users', summary: 'Add a database user: rights from a preset, narrowed by key and channel patterns; its password is shown once',
    scope: 'clusters:write', body: CreateDatabaseUserRequest, errors: ALL,
    success: { status: 201, schema: DatabaseUserWithPassword, description: 'Created; every instance gets the user within seconds (applied: true once they have)' },
    problems: { 409: 'A user of this name exists on the cluster (code name_taken), or the cluster is being deleted or failed (code invalid_state)' },
  }),
  listDatabaseUsers: op({
    method: 'get', path: '/v1/clusters/{id}/users', summary: "A cluster's database users (never their passwords)", scope: 'clusters:read', errors: ALL, success: { status: 200, schema: DatabaseUserList },
  }),
  rotateDatabaseUser: op({
    method: 'post', path: '/v1/clusters/{id}/users/{name}/rotate', summary: 'New password for a database user (shown once); the previous one keeps working for graceSeconds',
    scope: 'clusters:write', params: z.object({ id: z.string(), name: z.string() }), body: RotateDatabaseUserRequest, errors: ALL,
    success: { status: 200, schema: DatabaseUserWithPassword }, problems: { 409: 'The cluster is being deleted or failed (code invalid_state)' },
  }),
  deleteDatabaseUser: op({
    method: 'delete', path: '/v1/clusters/{id}/users/{name}', summary: "Delete a database user: removed from every instance, its open connections closed",
    scope: 'clusters:write', params: z.object({ id: z.string(), name: z.string() }), errors: ALL, success: { status: 204, description: 'Deleted' },
    problems: { 409: 'The cluster is being deleted or failed (code invalid_state)' },
  }),
  getOperation: op({ method: 'get', path: '/v1/operations/{id}', summary: 'Get an operation', scope: 'clusters:read', errors: ALL, success: { status: 200, schema: Operation } }),
  // Nodes, capacity, live changes, organizations
  listNodes: op({
    method: 'get', path: '/v1/nodes', summary: 'List nodes: every node with its capacity for platform admins; for others only the nodes running their clusters, without capacity',
    scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: NodeList },
  }),
  getCapacity: op({
    method: 'get', path: '/v1/capacity', summary: 'Room for new clusters, computed by the placement planner for the shape asked: most replicas per shard, most memory per shard for those replicas, most shards of that memory (free memory per node for platform admins only)',
    scope: 'clusters:read', query: CapacityQuery, errors: [400, 401] as const, success: { status: 200, schema: Capacity },
  }),
  streamEvents: op({
    method: 'get', path: '/v1/events/stream',
    summary: "Live changes of the caller's organization: server-sent `cluster`, `cluster-deleted`, `operation`, `cluster-activity`, `topology` and `resync` events (session cookie or Bearer token; the stream ends once they no longer hold)",
    scope: 'clusters:read', errors: SIGNED_IN,
    success: {
      status: 200, description: 'Server-sent events; `event:` is the `type` of the LiveEvent JSON in `data:`',
      events: {
        cluster: LiveClusterEvent, 'cluster-deleted': LiveClusterDeletedEvent, operation: LiveOperationEvent,
        'cluster-activity': LiveClusterActivityEvent, topology: LiveTopologyEvent, resync: LiveResyncEvent,
      },
    },
  }),
  drainNode: op({
    method: 'post', path: '/v1/nodes/{id}/drain', summary: 'Drain a node for maintenance (platform admin): primaries switch over, every instance is rebuilt on other nodes',
    scope: 'admin', platformAdmin: true, errors: ALL, success: { status: 200, schema: NodeDrainState }, problems: { 403: 'Not a platform admin' },
  }),
  undrainNode: op({
    method: 'post', path: '/v1/nodes/{id}/undrain', summary: 'Return a drained node to placement (platform admin)',
    scope: 'admin', platformAdmin: true, errors: ALL, success: { status: 200, schema: NodeDrainState }, problems: { 403: 'Not a platform admin' },
  }),
  revokeNodeCredential: op({
    method: 'post', path: '/v1/nodes/{id}/revoke-credential',
    summary: "Revoke a node agent's credential (platform admin): its requests are refused from now on; the node goes silent and its copies are rebuilt elsewhere",
    scope: 'admin', platformAdmin: true, errors: ALL, success: { status: 200, schema: NodeCredentialRevoked }, problems: { 403: 'Not a platform admin' },
  }),
  createJoinToken: op({
    method: 'post', path: '/v1/nodes/join-tokens', summary: 'Create a one-time join token for a new node (platform admin)',
    scope: 'admin', platformAdmin: true, body: CreateJoinTokenRequest, errors: ALL, success: { status: 201, schema: JoinToken }, problems: { 403: 'Not a platform admin' },
  }),
  createOrganization: op({
    method: 'post', path: '/v1/organizations', summary: 'Create an organization (platform admin)',
    scope: 'admin', platformAdmin: true, body: CreateOrganizationRequest, errors: ALL, success: { status: 201, schema: CreateOrganizationResponse },
    problems: { 403: 'Not a platform admin', 409: 'Name taken' },
  }),
  // Users, tokens, audit (issue 11)
  listUsers: op({ method: 'get', path: '/v1/users', summary: "Users of the caller's organization and their roles", scope: 'admin', success: { status: 200, schema: UserList } }),
  createUser: op({
    method: 'post', path: '/v1/users', summary: "Create a user in the caller's organization", scope: 'admin', body: CreateUserRequest,
    success: { status: 201, schema: User }, problems: { 409: 'Email taken' },
  }),
  updateUser: op({
    method: 'patch', path: '/v1/users/{id}', summary: "Change a user's role (bounds the user's tokens at once)", scope: 'admin', body: UpdateUserRequest,
    success: { status: 200, schema: User }, problems: { 409: 'Would leave the organization without an admin (code invalid_state)' },
  }),
  createToken: op({
    method: 'post', path: '/v1/tokens', summary: 'Create an API token with scopes within your own; the secret is returned once', scope: 'self',
    body: CreateTokenRequest, success: { status: 201, schema: ApiToken },
  }),
  listTokens: op({
    method: 'get', path: '/v1/tokens', summary: "API tokens (an admin sees the organization's, others their own), with last use", scope: 'self',
    success: { status: 200, schema: ApiTokenList },
  }),
  getToken: op({ method: 'get', path: '/v1/tokens/{id}', summary: 'One API token (never its secret)', scope: 'self', success: { status: 200, schema: ApiTokenInfo } }),
  revokeToken: op({
    method: 'delete', path: '/v1/tokens/{id}', summary: 'Revoke an API token (idempotent); it stops working at once', scope: 'self',
    success: { status: 200, schema: ApiTokenInfo },
  }),
  listAudit: op({
    method: 'get', path: '/v1/audit', summary: 'Audit log: who changed what in the organization, newest first', scope: 'admin', query: AuditQuery,
    success: { status: 200, schema: AuditList },
  }),
  // Console sign-in
  createSession: op({
    method: 'post', path: '/v1/session', summary: 'Sign in (sets an httpOnly session cookie)', auth: 'none', body: LoginRequest, errors: [400],
    success: { status: 200, schema: Session }, problems: { 401: 'Wrong email or password (code invalid_credentials)' },
  }),
  getSession: op({
    method: 'get', path: '/v1/session', summary: 'Current session (with `?optional=true`: 200 and `null` when signed out, instead of 401)', auth: 'none',
    queryDoc: z.object({ optional: z.enum(['true', 'false']).optional() }), errors: SIGNED_IN,
    // A union, not Session.nullable(): zod-to-openapi renders a nullable component as `allOf: [Session, {type: [object, null]}]`, which rejects null.
    success: { status: 200, schema: z.union([Session, z.null()]) },
  }),
  deleteSession: op({ method: 'delete', path: '/v1/session', summary: 'Sign out', auth: 'none', errors: [], success: { status: 204, description: 'Signed out' } }),
  // The agent protocol
  registerAgent: op({
    method: 'post', path: '/v1/agent/register', summary: 'Agent: register with a one-time join token', auth: 'none', body: RegisterAgentRequest, errors: [400],
    success: { status: 201, schema: RegisterAgentResponse }, problems: { 401: 'Join token invalid, used or expired (code join_token_invalid)' },
  }),
  reportAgentStatus: op({
    method: 'post', path: '/v1/agent/status', summary: 'Agent: report observed node and engine status', auth: 'node', body: AgentStatusReport, errors: [400, 401],
    success: { status: 204, description: 'Stored' },
  }),
  getAgentEndpoints: op({
    method: 'get', path: '/v1/agent/endpoints', summary: 'Agent: the cluster endpoints to serve and the live instances they forward to', auth: 'node', errors: SIGNED_IN,
    success: { status: 200, schema: AgentEndpoints },
  }),
  leaseTask: op({
    method: 'get', path: '/v1/agent/tasks', summary: 'Agent: long-poll for the next task and lease it', auth: 'node',
    queryDoc: z.object({ waitMs: z.string().optional() }), errors: SIGNED_IN, success: { status: 200, schema: LeaseTaskResponse },
  }),
  heartbeatTask: op({
    method: 'post', path: '/v1/agent/tasks/{id}/heartbeat', summary: "Agent: extend a task's lease (the reply may ask the task to stop early)", auth: 'node', errors: ALL,
    success: { status: 200, schema: HeartbeatResponse }, problems: { 409: 'Lease lost' },
  }),
  reportTaskProgress: op({
    method: 'post', path: '/v1/agent/tasks/{id}/progress', summary: "Agent: report a running task's progress", auth: 'node', body: TaskProgressRequest, errors: ALL,
    success: { status: 204, description: 'Recorded' }, problems: { 409: 'Lease lost' },
  }),
  completeTask: op({
    method: 'post', path: '/v1/agent/tasks/{id}/complete', summary: 'Agent: report a task outcome', auth: 'node', body: CompleteTaskRequest, errors: ALL,
    success: { status: 204, description: 'Recorded' },
  }),
  // Metrics (issue 9)
  getClusterMetrics: op({
    method: 'get', path: '/v1/clusters/{id}/metrics', summary: 'Metric history of a cluster, by cluster, shard or instance (hot window, 1 s points or 1 min rollups)',
    scope: 'clusters:read', query: ClusterMetricsQuery, queryDoc: metricsQueryDoc, errors: ALL, success: { status: 200, schema: MetricsResult },
  }),
  streamClusterMetrics: op({
    method: 'get', path: '/v1/clusters/{id}/metrics/stream', summary: 'Live metrics: server-sent `sample` events, one point per series per second', scope: 'clusters:read',
    query: MetricsStreamQuery, queryDoc: z.object({ metric: z.string().optional(), by: z.enum(['cluster', 'shard', 'instance']).optional() }), errors: ALL,
    success: { status: 200, description: 'Server-sent `sample` events (`id:` the unix second, `data:` a MetricsStreamEvent)', events: { sample: MetricsStreamEvent }, eventIds: true },
  }),
  getNodeMetrics: op({
    method: 'get', path: '/v1/nodes/{id}/metrics', summary: 'Host metric history of a node (cpu, memory, disk); platform admins only', scope: 'clusters:read', platformAdmin: true,
    query: NodeMetricsQuery,
    queryDoc: z.object({ metric: z.string().optional().describe('comma-separated: cpu, memory_total, memory_available, memory_used, disk_total, disk_free, disk_used'), from: z.string().optional(), to: z.string().optional(), step: z.string().optional() }),
    errors: ALL, success: { status: 200, schema: MetricsResult }, problems: { 403: 'Not a platform admin' },
  }),
  listClusterCurrentMetrics: op({
    method: 'get', path: '/v1/metrics/clusters', summary: "Current ops/s, p99 and memory of the caller's clusters", scope: 'clusters:read', errors: SIGNED_IN,
    success: { status: 200, schema: ClusterCurrentMetricsList },
  }),
  listNodeCurrentMetrics: op({
    method: 'get', path: '/v1/metrics/nodes', summary: 'Current CPU, memory and disk of every node (platform admins; an empty list for others: host load includes other organizations)',
    scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: NodeCurrentMetricsList },
  }),
  pushAgentMetrics: op({
    method: 'post', path: '/v1/agent/metrics', summary: 'Agent: push a batch of per-second instance and host samples', auth: 'node', body: AgentMetricsBatch, errors: [400, 401],
    success: { status: 200, schema: z.object({ accepted: z.number().int(), rejected: z.number().int() }) },
  }),
  prometheusMetrics: op({
    method: 'get', path: '/metrics', summary: 'Prometheus exposition of cluster, shard, instance and node series and the control plane\'s health (scrape token as Bearer)',
    auth: 'scrape', errors: SIGNED_IN, success: { status: 200, description: 'text/plain; version=0.0.4', content: { 'text/plain': z.string() } },
  }),
  // Benchmarks (issue 10)
  startBenchmark: op({
    method: 'post', path: '/v1/clusters/{id}/benchmarks', summary: 'Start a benchmark on a cluster (one at a time per cluster)', scope: 'benchmarks:run', body: BenchmarkRequest,
    errors: ALL, success: { status: 202, schema: Benchmark, description: 'Accepted' }, problems: { 409: 'A benchmark is already running, or the cluster is not ready' },
  }),
  listBenchmarks: op({
    method: 'get', path: '/v1/clusters/{id}/benchmarks', summary: "A cluster's benchmarks, newest first", scope: 'clusters:read', errors: ALL, success: { status: 200, schema: BenchmarkList },
  }),
  listBenchmarkPresets: op({
    method: 'get', path: '/v1/clusters/{id}/benchmark-presets', summary: 'One-click presets sized to the cluster', scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: z.object({ items: z.array(z.object({
      id: z.string(), title: z.string(), description: z.string(), request: BenchmarkRequest,
      impact: z.string().describe('what the run does to the cluster, in plain words'),
      disruptive: z.boolean().describe('it interrupts service (kills a primary): the console asks for confirmation'),
    })) }) },
  }),
  getBenchmark: op({
    method: 'get', path: '/v1/benchmarks/{id}', summary: 'A benchmark: state, progress and (when finished) its result', scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: Benchmark },
  }),
  streamBenchmark: op({
    method: 'get', path: '/v1/benchmarks/{id}/stream', summary: 'Live progress (SSE `progress` events with per-second points; `end` when finished)', scope: 'clusters:read', errors: ALL,
    success: { status: 200, description: 'Server-sent `progress` events (a BenchmarkProgressEvent), then one `end`', events: { progress: BenchmarkProgressEvent, end: BenchmarkStreamEnd } },
  }),
  cancelBenchmark: op({
    method: 'post', path: '/v1/benchmarks/{id}/cancel', summary: 'Cancel a running benchmark: every worker stops', scope: 'benchmarks:run', errors: ALL,
    success: { status: 202, schema: Benchmark, description: 'Accepted' }, problems: { 409: 'Already finished' },
  }),
  exportBenchmark: op({
    method: 'get', path: '/v1/benchmarks/{id}/export', summary: 'Export: JSON with HdrHistogram logs (default) or CSV (?format=csv)', scope: 'clusters:read',
    queryDoc: z.object({ format: z.enum(['json', 'csv']).optional() }), errors: ALL,
    success: { status: 200, description: 'JSON or CSV', content: { 'application/json': z.object({}), 'text/csv': z.string() } },
  }),
  reportBenchmarkWorker: op({
    method: 'post', path: '/v1/agent/tasks/{id}/benchmark', summary: "Agent: a benchmark worker's report, answered with its next command", auth: 'node', body: BenchmarkWorkerReport,
    errors: ALL, success: { status: 200, schema: BenchmarkWorkerCommand },
  }),
  // Node I/O profiles: fio on a node's data volume, run by its agent
  startDiskProfile: op({
    method: 'post', path: '/v1/nodes/{id}/profiles', summary: "Profile a node's disk with fio through its agent (platform admin; one profile per node at a time)",
    scope: 'admin', platformAdmin: true, body: DiskProfileRequest, errors: ALL,
    success: { status: 202, schema: DiskProfileAccepted, description: 'Accepted; follow it at Location', headers: { Location: { schema: { type: 'string' } } } },
    problems: {
      403: 'Not a platform admin', 409: 'A profile is already running on the node (code conflict), the node is offline (invalid_state), or clusters on it are busy and `force` is not set (node_busy)',
      422: 'Less free space than twice the test files (code insufficient_space, naming how much is needed)',
    },
  }),
  listDiskProfiles: op({
    method: 'get', path: '/v1/nodes/{id}/profiles', summary: "A node's disk profiles, newest first (platform admin)", scope: 'admin', platformAdmin: true, errors: ALL,
    success: { status: 200, schema: DiskProfileList }, problems: { 403: 'Not a platform admin' },
  }),
  getDiskProfile: op({
    method: 'get', path: '/v1/profiles/{id}', summary: 'A disk profile: status, node facts, results per workload (IOPS, MB/s, latency percentiles in microseconds) and durability advice',
    scope: 'admin', platformAdmin: true, errors: ALL, success: { status: 200, schema: DiskProfile }, problems: { 403: 'Not a platform admin' },
  }),
  streamDiskProfile: op({
    method: 'get', path: '/v1/profiles/{id}/stream', summary: 'Live progress (SSE `progress` events, with each finished workload and the load of the clusters on the node; `end` when finished)',
    scope: 'admin', platformAdmin: true, errors: ALL,
    success: { status: 200, description: 'Server-sent `progress` events (a DiskProfileProgressEvent), then one `end`', events: { progress: DiskProfileProgressEvent, end: DiskProfileStreamEnd } },
    problems: { 403: 'Not a platform admin' },
  }),
  cancelDiskProfile: op({
    method: 'post', path: '/v1/profiles/{id}/cancel', summary: 'Cancel a running disk profile: the agent kills fio and removes its files', scope: 'admin', platformAdmin: true, errors: ALL,
    success: { status: 202, schema: DiskProfile, description: 'Accepted' }, problems: { 403: 'Not a platform admin', 409: 'Already finished' },
  }),
  getDurabilityAdvice: op({
    method: 'get', path: '/v1/durability-advice', summary: "Each durability level's predicted write ceiling, from the newest Redis disk profile of every node (`fleet`: the lowest over them)",
    scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: DurabilityAdviceList },
  }),
  reportDiskProfile: op({
    method: 'post', path: '/v1/agent/tasks/{id}/disk-profile', summary: "Agent: a disk profile's progress, facts and results, answered with whether to stop", auth: 'node', body: DiskProfileReport,
    errors: ALL, success: { status: 200, schema: DiskProfileCommand },
  }),
  // Alerts and notification channels
  createClusterAlertRule: op({
    method: 'post', path: '/v1/clusters/{id}/alert-rules', summary: 'Add an alert rule to a cluster', scope: 'clusters:write', body: CreateAlertRuleRequest, errors: ALL,
    success: { status: 201, schema: AlertRule, headers: { Location: { schema: { type: 'string' } } } },
    problems: { 422: 'channelIds names a channel that does not exist (code validation_failed, field channelIds)' },
  }),
  listClusterAlertRules: op({
    method: 'get', path: '/v1/clusters/{id}/alert-rules', summary: "A cluster's alert rules (and the organization's, which apply to it)", scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: AlertRuleList },
  }),
  clusterPrometheusRules: op({
    method: 'get', path: '/v1/clusters/{id}/alert-rules/prometheus', summary: "A cluster's alert rules as a Prometheus rule file (YAML) over Strata's /metrics names", scope: 'clusters:read', errors: ALL,
    success: { status: 200, description: 'application/yaml', content: { 'application/yaml': PrometheusRuleFile } },
  }),
  createAlertRule: op({
    method: 'post', path: '/v1/alert-rules', summary: 'Add an organization alert rule (evaluated for each of its clusters)', scope: 'clusters:write', body: CreateAlertRuleRequest, errors: ALL,
    success: { status: 201, schema: AlertRule, headers: { Location: { schema: { type: 'string' } } } },
    problems: { 422: 'channelIds names a channel that does not exist (code validation_failed, field channelIds)' },
  }),
  listAlertRules: op({ method: 'get', path: '/v1/alert-rules', summary: "Every alert rule of the organization", scope: 'clusters:read', errors: SIGNED_IN, success: { status: 200, schema: AlertRuleList } }),
  prometheusRules: op({
    method: 'get', path: '/v1/alert-rules/prometheus', summary: "Every alert rule of the organization as a Prometheus rule file (YAML)", scope: 'clusters:read', errors: SIGNED_IN,
    success: { status: 200, description: 'application/yaml', content: { 'application/yaml': PrometheusRuleFile } },
  }),
  getAlertRule: op({ method: 'get', path: '/v1/alert-rules/{id}', summary: 'Get an alert rule', scope: 'clusters:read', errors: ALL, success: { status: 200, schema: AlertRule } }),
  updateAlertRule: op({
    method: 'patch', path: '/v1/alert-rules/{id}', summary: "Change an alert rule's name, threshold, duration, channels or whether it is enabled", scope: 'clusters:write',
    body: UpdateAlertRuleRequest, errors: ALL, success: { status: 200, schema: AlertRule },
  }),
  deleteAlertRule: op({
    method: 'delete', path: '/v1/alert-rules/{id}', summary: 'Delete an alert rule (its firing alerts resolve, its history stays)', scope: 'clusters:write', errors: ALL,
    success: { status: 204 },
  }),
  listAlerts: op({
    method: 'get', path: '/v1/alerts', summary: 'Alerts of the organization, newest first: firing and resolved (history)', scope: 'clusters:read', query: AlertQuery,
    errors: [400, 401], success: { status: 200, schema: AlertList },
  }),
  createNotificationChannel: op({
    method: 'post', path: '/v1/notification-channels', summary: 'Add a notification channel: a webhook (HMAC-signed JSON or Slack) or e-mail', scope: 'clusters:write',
    body: CreateNotificationChannelRequest, errors: ALL,
    success: { status: 201, schema: NotificationChannel, headers: { Location: { schema: { type: 'string' } } } },
    problems: { 422: 'e-mail while the operator has configured no SMTP server (code smtp_not_configured, field type)' },
  }),
  listNotificationChannels: op({
    method: 'get', path: '/v1/notification-channels', summary: "The organization's notification channels (secrets never shown)", scope: 'clusters:read', errors: SIGNED_IN,
    success: { status: 200, schema: NotificationChannelList },
  }),
  getNotificationChannel: op({
    method: 'get', path: '/v1/notification-channels/{id}', summary: 'Get a notification channel (its secret is never shown)', scope: 'clusters:read', errors: ALL,
    success: { status: 200, schema: NotificationChannel },
  }),
  deleteNotificationChannel: op({
    method: 'delete', path: '/v1/notification-channels/{id}', summary: 'Delete a notification channel (rules stop naming it)', scope: 'clusters:write', errors: ALL, success: { status: 204 },
  }),
  testNotificationChannel: op({
    method: 'post', path: '/v1/notification-channels/{id}/test', summary: 'Send a test notification; follow it in the delivery log', scope: 'clusters:write', errors: ALL,
    success: { status: 202, schema: Delivery, description: 'Queued' },
  }),
  listNotificationDeliveries: op({
    method: 'get', path: '/v1/notification-channels/{id}/deliveries', summary: "A channel's delivery log, newest first: every attempt with its status code or error", scope: 'clusters:read',
    errors: ALL, success: { status: 200, schema: DeliveryList },
  }),
  health: op({
    method: 'get', path: '/healthz', summary: 'Liveness and database reachability', auth: 'none', errors: [], success: { status: 200, schema: z.object({ status: z.literal('ok') }) },
  }),
} as const;

export type OperationName = keyof typeof OPERATION_TABLE;
