/**
 * The Activity events of backups and restores: a cluster's backup completed
 * or failed (with its reason), a cluster restored from a backup. Pure: the
 * coordinator and the reconciler record what these build.
 */
import type { BackupManifest } from '@strata/api';
import type { NewClusterEvent } from '../stores/event.store';
import type { RestoreMode } from './backup.store';

const MiB = 1024 * 1024;
const size = (bytes: number) => (bytes < MiB ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / MiB).toFixed(1)} MB`);
const count = (n: number) => n.toLocaleString('en-US');

type Trigger = 'manual' | 'schedule';

export function backupCompletedEvent(backupId: string, trigger: Trigger, m: BackupManifest): NewClusterEvent {
  const bytes = m.shards.reduce((n, s) => n + s.bytes, 0);
  const keys = m.shards.reduce((n, s) => n + s.keys, 0);
  const durationMs = Math.max(0, Date.parse(m.finishedAt) - Date.parse(m.startedAt));
  const how = m.consistent ? `consistent, writes paused ${m.writePauseMs ?? 0} ms` : `shards ${m.skewMs} ms apart`;
  return {
    type: 'backup-completed', backupId, trigger, consistent: m.consistent, bytes, keys, durationMs,
    message: `${trigger === 'schedule' ? 'Scheduled backup' : 'Backup'} completed: ${count(keys)} keys, ${size(bytes)} in ${m.shards.length} file(s), ${(durationMs / 1000).toFixed(1)} s (${how}).`,
  };
}

export function backupFailedEvent(backupId: string, trigger: Trigger, code: string, reason: string): NewClusterEvent {
  return {
    type: 'backup-failed', backupId, trigger, code, reason,
    message: `${trigger === 'schedule' ? 'Scheduled backup' : 'Backup'} failed (${code}): ${reason}.`.replace(/\.\.$/, '.'),
  };
}

export function restoreCompletedEvent(backupId: string, mode: RestoreMode, m: BackupManifest, shards: number): NewClusterEvent {
  const keys = m.shards.reduce((n, s) => n + s.keys, 0);
  const how = mode === 'seed' ? 'each file loaded by its shard' : `keys moved by slot from ${m.shards.length} file(s) into ${shards} shard(s)`;
  return {
    type: 'restore-completed', backupId, sourceClusterName: m.cluster.name, mode, keys,
    message: `Restored from the backup of ${m.cluster.name} taken ${m.startedAt}: ${count(keys)} keys, ${how}.`,
  };
}
