/**
 * Backups: one snapshot (RDB) per shard plus a manifest, written last. And
 * what agents are asked to do for them (snapshot a shard; seed a restored
 * primary from its shard's file).
 */
import { z, Id, Timestamp, safeString } from './common';
import { ClusterSpec, SlotRange } from './clusters';

/** Where a backup's objects are (never with secrets). */
export const StorageRef = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), root: safeString().describe("a directory on the control plane's host") }),
  z.object({
    kind: z.literal('s3'),
    endpoint: safeString(),
    bucket: safeString(),
    region: safeString(),
    prefix: z.string().max(200).describe('key prefix inside the bucket (empty or ending in /)'),
    credentialsId: Id.describe('the sealed access key pair, added to an agent\'s task on the way out'),
  }),
]).openapi('BackupStorageRef');
export type StorageRef = z.infer<typeof StorageRef>;

/** An S3 access key pair (only ever in a task on its way to an agent, never stored in clear). */
export const StorageCredentials = z.object({ accessKeyId: z.string(), secretAccessKey: z.string() });
export type StorageCredentials = z.infer<typeof StorageCredentials>;

const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_PREFIX = /^([A-Za-z0-9._-]+\/)*$/;

/** An organization's backup storage: S3-compatible object storage. The secret is write-only. */
export const SetBackupStorageRequest = z.strictObject({
  kind: z.literal('s3'),
  endpoint: z.url({ protocol: /^https?$/ }).max(500).describe('e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:8333'),
  bucket: z.string().regex(S3_BUCKET, 'a bucket name: 3-63 lower-case letters, digits, dots and dashes'),
  region: z.string().min(1).max(64).regex(/^[a-z0-9-]+$/, 'a region name such as us-east-1').default('us-east-1'),
  prefix: z.string().max(200).regex(S3_PREFIX, 'empty, or path segments each ending in /').default(''),
  accessKeyId: safeString().min(1).max(256),
  secretAccessKey: safeString().min(1).max(256).describe('write-only: never shown again'),
}).openapi('SetBackupStorageRequest');
export type SetBackupStorageRequest = z.infer<typeof SetBackupStorageRequest>;

export const BackupStorage = z.object({
  kind: z.enum(['local', 's3']).describe("local: the control plane's directory (the default)"),
  endpoint: z.string().nullable(),
  bucket: z.string().nullable(),
  region: z.string().nullable(),
  prefix: z.string().nullable(),
  accessKeyId: z.string().nullable().describe('the last 4 characters only; the secret is never shown'),
  updatedAt: Timestamp.nullable(),
}).openapi('BackupStorage');
export type BackupStorage = z.infer<typeof BackupStorage>;

export const BackupStatus = z.enum(['running', 'completed', 'failed']);
export type BackupStatus = z.infer<typeof BackupStatus>;

export const BackupShardFile = z.object({
  shard: z.number().int(),
  slots: z.array(SlotRange),
  file: z.string().describe('object key under the backup'),
  bytes: z.number().int(),
  sha256: z.string(),
  keys: z.number().int().describe('keys in the snapshot'),
  keysWithExpiry: z.number().int().describe('of which with a TTL (those that expire before a restore are not loaded)'),
  usedMemoryBytes: z.number().int().describe('memory the source used when it took the snapshot'),
  source: z.object({ instanceId: Id, role: z.enum(['primary', 'replica']), address: z.string() }),
  snapshotAt: Timestamp.describe('when the snapshot started (its point in time)'),
  finishedAt: Timestamp,
}).openapi('BackupShardFile');
export type BackupShardFile = z.infer<typeof BackupShardFile>;

export const BackupManifest = z.object({
  formatVersion: z.literal(1),
  backupId: Id,
  cluster: z.object({ id: Id, name: z.string(), spec: ClusterSpec }),
  engineVersion: z.string().describe('redis_version of the sources'),
  consistent: z.boolean().describe('false: each shard has its own point in time'),
  startedAt: Timestamp,
  finishedAt: Timestamp,
  skewMs: z.number().int().describe('time between the first and the last shard\'s snapshot'),
  writePauseMs: z.number().nullable().describe('consistent backups: how long writes were paused on the primaries'),
  shards: z.array(BackupShardFile),
}).openapi('BackupManifest');
export type BackupManifest = z.infer<typeof BackupManifest>;

export const BackupShardProgress = z.object({
  shard: z.number().int(),
  state: z.enum(['pending', 'running', 'completed', 'failed']),
  bytes: z.number().int().nullable().describe('bytes stored so far'),
  totalBytes: z.number().int().nullable().describe("the snapshot's size when known (a snapshot streamed as it is produced: once stored)"),
  source: z.string().nullable().describe('host:port of the instance the snapshot is taken on'),
});

export const Backup = z.object({
  id: Id,
  clusterId: Id,
  clusterName: z.string(),
  status: BackupStatus,
  consistent: z.boolean(),
  storage: z.enum(['local', 's3']),
  trigger: z.enum(['manual', 'schedule', 'import', 'upload']).describe('import: fetched from a running Redis or Redis Cluster (POST /v1/backups/import); upload: an RDB file uploaded (POST /v1/backups/upload)'),
  importedFrom: z.string().nullable().describe('imports: the source as redis://[user@]host:port (never the password)'),
  clusterDeleted: z.boolean().describe('the cluster is gone; the backup is kept until its retention ends'),
  expiresAt: Timestamp.nullable().describe('when retention deletes it (keepDays); null: kept until deleted or pushed out by keepLast'),
  shards: z.array(BackupShardProgress),
  manifest: BackupManifest.nullable().describe('present once completed'),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('why it failed'),
  createdAt: Timestamp,
  finishedAt: Timestamp.nullable(),
}).openapi('Backup');
export type Backup = z.infer<typeof Backup>;

export const BackupResponse = z.object({ backup: Backup }).openapi('BackupResponse');
export type BackupResponse = z.infer<typeof BackupResponse>;

export const BackupList = z.object({ items: z.array(Backup) }).openapi('BackupList');
export type BackupList = z.infer<typeof BackupList>;

/** Import a running Redis (standalone, or every primary of a Redis Cluster) as a backup, which then restores like any. */
export const ImportBackupRequest = z.strictObject({
  url: z.string().max(1000).regex(/^redis:\/\/([^@/\s]*@)?[^:/@\s]+:\d{1,5}\/?$/, 'redis://[user:password@]host:port')
    .describe('the source: a standalone Redis, or any node of a Redis Cluster (every primary is fetched). The password is used for the fetch only and never shown.'),
  name: safeString().min(1).max(100).optional().describe('shown as the backup\'s cluster name (default: host:port)'),
}).openapi('ImportBackupRequest');
export type ImportBackupRequest = z.infer<typeof ImportBackupRequest>;

/** An uploaded RDB file's name (the body is the file itself, application/octet-stream). */
export const UploadBackupQuery = z.strictObject({
  name: safeString().min(1).max(100).optional().describe("shown as the backup's cluster name (default: uploaded RDB)"),
}).openapi('UploadBackupQuery');
export type UploadBackupQuery = z.infer<typeof UploadBackupQuery>;

/** The organization's backups: of every cluster (deleted ones too), imports and uploads. */
export const ListBackupsQuery = z.strictObject({
  status: BackupStatus.optional(),
  clusterDeleted: z.enum(['true', 'false']).optional().describe("true: only backups whose cluster was deleted (imports and uploads have none and are never listed so); false: the others"),
  trigger: z.enum(['manual', 'schedule', 'import', 'upload']).optional(),
}).openapi('ListBackupsQuery');
export type ListBackupsQuery = z.infer<typeof ListBackupsQuery>;

export const CreateBackupRequest = z.strictObject({
  consistent: z.boolean().optional().describe('one point in time across every shard: writes pause on every primary while each shard\'s snapshot starts'),
}).openapi('CreateBackupRequest');

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** When a cluster is backed up, and how long its backups are kept. */
export const BackupSchedule = z.strictObject({
  intervalHours: z.number().int().min(1).max(168).nullable().default(null).describe('back up every N hours'),
  dailyAt: z.string().regex(HHMM, 'a time of day, HH:MM (UTC)').nullable().default(null).describe('back up once a day at HH:MM UTC'),
  keepLast: z.number().int().min(1).max(1000).nullable().default(null).describe('keep the newest N completed backups of the cluster'),
  keepDays: z.number().int().min(1).max(3650).nullable().default(null).describe('keep completed backups N days'),
  consistent: z.boolean().default(false),
}).superRefine((v, ctx) => {
  if ((v.intervalHours === null) === (v.dailyAt === null)) ctx.addIssue({ code: 'custom', path: ['intervalHours'], message: 'give exactly one of intervalHours and dailyAt' });
  if (v.keepLast !== null && v.keepDays !== null) ctx.addIssue({ code: 'custom', path: ['keepLast'], message: 'give at most one of keepLast and keepDays' });
}).openapi('BackupSchedule');
export type BackupSchedule = z.infer<typeof BackupSchedule>;

export const BackupScheduleResponse = z.object({
  schedule: BackupSchedule.nullable().describe('null: no schedule'),
  nextAt: Timestamp.nullable().describe('when the next scheduled backup starts'),
}).openapi('BackupScheduleResponse');
export type BackupScheduleResponse = z.infer<typeof BackupScheduleResponse>;
export type CreateBackupRequest = z.infer<typeof CreateBackupRequest>;

/** A restored primary's first start: its shard's file, copied into its data directory (checked against its SHA-256) before the engine starts. */
export const InstanceSeed = z.object({
  storage: StorageRef,
  storageCredentials: StorageCredentials.optional().describe('added on the way to the agent for S3 storage'),
  key: z.string(),
  sha256: z.string(),
  keys: z.number().int(),
  keysWithExpiry: z.number().int(),
});
export type InstanceSeed = z.infer<typeof InstanceSeed>;

/** An import's shard: fetch an RDB from a running Redis over the replication protocol and stream it to the storage (the password is added on the way to the agent). */
export const ImportShardTaskSpec = z.object({
  backupId: Id,
  clusterId: Id.describe("imports own their tasks: the backup's id"),
  shard: z.number().int(),
  source: z.object({ host: z.string(), port: z.number().int(), username: z.string().optional() }),
  storage: StorageRef,
  key: z.string(),
});
export type ImportShardTaskSpec = z.infer<typeof ImportShardTaskSpec>;

/** Snapshot one shard on `instanceId` (BGSAVE there) and stream the file to the storage. */
export const BackupShardTaskSpec = z.object({
  backupId: Id,
  clusterId: Id,
  instanceId: Id,
  port: z.number().int(),
  shard: z.number().int(),
  storage: StorageRef,
  key: z.string(),
  awaitSave: z.object({ savesBefore: z.number().int(), snapshotAt: Timestamp }).optional()
    .describe('consistent backups: the snapshot was started during the write pause; wait for that one (rdb_saves past savesBefore) instead of starting one'),
});
export type BackupShardTaskSpec = z.infer<typeof BackupShardTaskSpec>;

const Endpoint = z.object({ host: z.string(), port: z.number().int() });

/**
 * A consistent backup's start, on one agent: CLIENT PAUSE WRITE on every
 * primary, wait until each shard's source replica has every write the
 * primary acknowledged, BGSAVE on every source, CLIENT UNPAUSE.
 */
export const BackupConsistentStartTaskSpec = z.object({
  backupId: Id,
  clusterId: Id,
  pauseTimeoutMs: z.number().int().min(100).max(10_000).describe('the pause ends by itself after this, should the agent die holding it'),
  shards: z.array(z.object({ shard: z.number().int(), primary: Endpoint, source: Endpoint.extend({ instanceId: Id, role: z.enum(['primary', 'replica']) }) })),
});
export type BackupConsistentStartTaskSpec = z.infer<typeof BackupConsistentStartTaskSpec>;

export const BackupConsistentStartResult = z.object({
  kind: z.literal('backup-consistent-start'),
  writePauseMs: z.number().describe('from the first CLIENT PAUSE sent to the last CLIENT UNPAUSE answered'),
  shards: z.array(z.object({ shard: z.number().int(), instanceId: Id, savesBefore: z.number().int(), snapshotAt: Timestamp })),
});
export type BackupConsistentStartResult = z.infer<typeof BackupConsistentStartResult>;

export const BackupShardResult = z.object({
  kind: z.literal('backup-shard'),
  bytes: z.number().int(),
  sha256: safeString(),
  keys: z.number().int(),
  keysWithExpiry: z.number().int(),
  usedMemoryBytes: z.number().int(),
  engineVersion: safeString(),
  snapshotAt: Timestamp,
  finishedAt: Timestamp,
  /** Where the agent's time went (benchmarks print it; absent from agents that do not measure it). */
  phases: z.object({
    openMs: z.number().describe('from the task\'s start to the snapshot streaming (the instance forked and answered)'),
    streamMs: z.number().describe('from then to the snapshot\'s last byte read'),
    storeMs: z.number().describe('from the last byte read to the object stored (the last part and the completion)'),
    cpuMs: z.number().describe('the agent process\'s CPU time meanwhile (all its work, not only this task\'s)'),
  }).optional(),
});
export type BackupShardResult = z.infer<typeof BackupShardResult>;

/** A backup task's progress detail ("12345 of 67890 bytes", or "12345 bytes" while the total is unknown): written by the agent, read back by the API's view. */
export const backupProgressDetail = (bytes: number, total: number | null) => (total === null ? `${bytes} bytes` : `${bytes} of ${total} bytes`);
export function parseBackupProgressDetail(detail: string | null | undefined): { bytes: number; total: number | null } | null {
  const m = /^(\d+)(?: of (\d+))? bytes$/.exec(detail ?? '');
  return m ? { bytes: Number(m[1]), total: m[2] === undefined ? null : Number(m[2]) } : null;
}

/**
 * A restore into another layout, one backup file on one agent: load the
 * file into a temporary engine and move its keys by slot into the new
 * cluster's primaries.
 */
export const RestoreKeysTaskSpec = z.object({
  clusterId: Id,
  backupShard: z.number().int().describe("the backup's shard whose file this task moves"),
  file: InstanceSeed.describe('the file, checked against its SHA-256 on the way in'),
  targets: z.array(Endpoint).min(1).describe("the new cluster's primaries (the slot map is read from them)"),
});
export type RestoreKeysTaskSpec = z.infer<typeof RestoreKeysTaskSpec>;

export const RestoreKeysResult = z.object({
  kind: z.literal('restore-keys'),
  keysTotal: z.number().int().describe('keys the temporary engine loaded'),
  keysMoved: z.number().int(),
  keysExpired: z.number().int().describe('keys whose TTL ran out before they were moved'),
});
export type RestoreKeysResult = z.infer<typeof RestoreKeysResult>;

/** A restore-keys task's progress detail ("1200 of 3000 keys"): written by the agent, read back by the create operation's load-data step. */
export const restoreProgressDetail = (done: number, total: number) => `${done} of ${total} keys`;
export function parseRestoreProgressDetail(detail: string | null | undefined): { done: number; total: number } | null {
  const m = /^(\d+) of (\d+) keys$/.exec(detail ?? '');
  return m ? { done: Number(m[1]), total: Number(m[2]) } : null;
}
