import { describe, expect, it } from 'vitest';
import { ClusterEvent, type BackupManifest } from '@strata/api';
import { backupCompletedEvent, backupFailedEvent, restoreCompletedEvent } from './backup-events';

const manifest = {
  cluster: { name: 'orders' }, consistent: true, writePauseMs: 14, skewMs: 0,
  startedAt: '2026-12-01T10:00:00.000Z', finishedAt: '2026-12-01T10:00:02.500Z',
  shards: [{ bytes: 1_048_576, keys: 1200 }, { bytes: 1_048_576, keys: 1300 }],
} as unknown as BackupManifest;
const parse = (e: object) => ClusterEvent.parse({ ...e, id: '00000000-0000-4000-8000-000000000001', clusterId: '00000000-0000-4000-8000-000000000002', at: '2026-12-01T10:00:03.000Z' });
const backupId = '00000000-0000-4000-8000-0000000000bb';

describe('backup and restore events', () => {
  it('a completed backup: size, keys, duration and how it was taken', () => {
    const e = parse(backupCompletedEvent(backupId, 'schedule', manifest));
    expect(e).toMatchObject({ type: 'backup-completed', bytes: 2_097_152, keys: 2500, durationMs: 2500, consistent: true, trigger: 'schedule' });
    expect(e.message).toBe('Scheduled backup completed: 2,500 keys, 2.0 MB in 2 file(s), 2.5 s (consistent, writes paused 14 ms).');
  });

  it('a failed backup carries its code and reason', () => {
    const e = parse(backupFailedEvent(backupId, 'manual', 'storage_failed', 'shard 1: storage: bucket full (3 attempts)'));
    expect(e).toMatchObject({ type: 'backup-failed', code: 'storage_failed', reason: 'shard 1: storage: bucket full (3 attempts)' });
    expect(e.message).toBe('Backup failed (storage_failed): shard 1: storage: bucket full (3 attempts).');
  });

  it('a restore says from which backup and how the keys came in', () => {
    expect(parse(restoreCompletedEvent(backupId, 'move', manifest, 3)).message)
      .toBe('Restored from the backup of orders taken 2026-12-01T10:00:00.000Z: 2,500 keys, keys moved by slot from 2 file(s) into 3 shard(s).');
    expect(parse(restoreCompletedEvent(backupId, 'seed', manifest, 2))).toMatchObject({ type: 'restore-completed', mode: 'seed', keys: 2500, sourceClusterName: 'orders' });
  });
});
