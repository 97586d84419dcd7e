/**
 * Unfinished multipart uploads nobody will finish. A writer streaming a
 * backup's file into S3 (an agent's shard, the control plane receiving an
 * upload) that dies mid-upload (`kill -9`, a host lost) leaves its upload
 * open in the bucket: its parts are stored and billed, yet no listing of
 * objects shows them. A backup that fails has its uploads aborted with its
 * objects, but an upload a stalled writer opens after that sweep, or that a
 * crash left under a backup whose record is gone, stays for good. This sweep
 * looks at every S3 storage in use and aborts each upload under a backup's
 * id (the first part of every key Strata writes) unless that backup is
 * running: a running backup's own writer finishes or aborts it, and once it
 * stops running, the next sweep does. Keys that are not under a backup id
 * are not Strata's and are left alone.
 */
import type { Logger } from 'pino';
import type { StorageRef } from '@strata/api';
import { S3Storage } from '@strata/engine/backup';
import type { BackupStore } from './backup.store';
import type { BackupStorageStore } from './backup-storage.store';

const BACKUP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OpenUpload {
  key: string;
  uploadId: string;
}

/** The rule: an upload under a backup's id is aborted unless that backup is running. */
export function uploadsToAbort<T extends OpenUpload>(uploads: T[], running: Set<string>): (T & { backupId: string })[] {
  return uploads.flatMap((u) => {
    const backupId = u.key.split('/')[0] ?? '';
    return BACKUP_ID.test(backupId) && !running.has(backupId.toLowerCase()) ? [{ ...u, backupId }] : [];
  });
}

/** Aborts what `uploadsToAbort` names in every S3 storage in use; returns the keys aborted. A storage that cannot be reached is tried at the next sweep. */
export async function sweepOpenUploads(d: { store: Pick<BackupStore, 's3StoragesInUse' | 'runningIds'>; storage: Pick<BackupStorageStore, 'open'>; log: Logger }): Promise<string[]> {
  const refs = dedupe(await d.store.s3StoragesInUse());
  const aborted: string[] = [];
  for (const ref of refs) {
    let storage: S3Storage | undefined;
    try {
      const opened = await d.storage.open(ref);
      if (!(opened instanceof S3Storage)) continue;
      storage = opened;
      const open = await storage.unfinishedUploads();
      if (!open.length) continue;
      // Read after the listing: a backup that started meanwhile is running here, so its fresh upload is kept.
      const running = await d.store.runningIds();
      for (const u of uploadsToAbort(open, running)) {
        await storage.abortUpload(u.key, u.uploadId);
        aborted.push(u.key);
        d.log.info({ backupId: u.backupId, key: u.key, bucket: ref.kind === 's3' ? ref.bucket : undefined }, 'aborted an unfinished multipart upload no running backup owns');
      }
    } catch (err) {
      d.log.warn({ err: (err as Error).message, bucket: ref.kind === 's3' ? ref.bucket : undefined }, 'could not sweep unfinished multipart uploads');
    } finally {
      storage?.destroy();
    }
  }
  return aborted;
}

/** One sweep per storage location and credentials (the same bucket and prefix named by many backups). */
function dedupe(refs: StorageRef[]): StorageRef[] {
  const seen = new Map<string, StorageRef>();
  for (const r of refs) {
    if (r.kind !== 's3') continue;
    const k = JSON.stringify([r.endpoint, r.bucket, r.prefix, r.credentialsId]);
    if (!seen.has(k)) seen.set(k, r);
  }
  return [...seen.values()];
}
