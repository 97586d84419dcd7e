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
]).openapi('BackupStorageRef');
export type StorageRef = z.infer<typeof StorageRef>;

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
  shards: z.array(BackupShardFile),
}).openapi('BackupManifest');
export type BackupManifest = z.infer<typeof BackupManifest>;

export const BackupShardProgress = z.object({
  shard: z.number().int(),
  state: z.enum(['pending', 'running', 'completed', 'failed']),
  bytes: z.number().int().nullable().describe('bytes stored so far (known once the shard completes)'),
  source: z.string().nullable().describe('host:port of the instance the snapshot is taken on'),
});

export const Backup = z.object({
  id: Id,
  clusterId: Id,
  clusterName: z.string(),
  status: BackupStatus,
  consistent: z.boolean(),
  storage: z.enum(['local']),
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

export const CreateBackupRequest = z.strictObject({
  consistent: z.boolean().optional().describe('one point in time across every shard (not available yet: 422)'),
}).openapi('CreateBackupRequest');
export type CreateBackupRequest = z.infer<typeof CreateBackupRequest>;

/** A restored primary's first start: its shard's file, copied into its data directory (checked against its SHA-256) before the engine starts. */
export const InstanceSeed = z.object({
  storage: StorageRef,
  key: z.string(),
  sha256: z.string(),
  keys: z.number().int(),
  keysWithExpiry: z.number().int(),
});
export type InstanceSeed = z.infer<typeof InstanceSeed>;

/** Snapshot one shard on `instanceId` (BGSAVE there) and stream the file to the storage. */
export const BackupShardTaskSpec = z.object({
  backupId: Id,
  clusterId: Id,
  instanceId: Id,
  port: z.number().int(),
  shard: z.number().int(),
  storage: StorageRef,
  key: z.string(),
});
export type BackupShardTaskSpec = z.infer<typeof BackupShardTaskSpec>;

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
});
export type BackupShardResult = z.infer<typeof BackupShardResult>;
