/**
 * An upload whose control plane died mid-stream: the coordinator leaves a
 * live upload alone, and fails a stale one (no touch for `uploadStaleMs`),
 * removing its objects. With fakes for the stores and the storage.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { BackupCoordinator, type BackupCoordinatorDeps } from './backup-coordinator';
import type { BackupRow } from './backup.store';

function setup(stale: boolean) {
  const row: BackupRow = {
    id: 'b1', organizationId: 'o1', clusterId: 'b1', clusterName: 'dump', status: 'running', consistent: false, storage: { kind: 'local', root: '/nowhere' },
    shards: [{ shard: 0, key: 'b1/shard-0.rdb' }], manifest: null, error: null, createdAt: new Date(), finishedAt: null, trigger: 'upload',
    importSource: null, expiresAt: null, filesRemoved: false, consistentStart: null,
  };
  const deleted: string[] = [];
  const store = {
    running: async () => (row.status === 'running' ? [row] : []),
    unswept: async () => [],
    uploadIsStale: async (_id: string, ms: number) => { expect(ms).toBe(30_000); return stale; },
    finish: async (_id: string, end: { status: 'failed'; error: { code: string; message: string } }) => { Object.assign(row, { status: end.status, error: end.error }); return true; },
    markFilesRemoved: async () => { row.filesRemoved = true; },
  };
  const deps = {
    store, tasks: { latestByKey: async () => new Map() }, log: pino({ level: 'silent' }), uploadStaleMs: 30_000,
    storage: { open: async () => ({ deletePrefix: async (p: string) => { deleted.push(p); } }) },
  } as unknown as BackupCoordinatorDeps;
  return { row, deleted, coordinator: new BackupCoordinator(deps) };
}

describe('a running upload', () => {
  it('is left alone while its process touches it', async () => {
    const { row, deleted, coordinator } = setup(false);
    await coordinator.tick();
    expect(row.status).toBe('running');
    expect(deleted).toEqual([]);
  });

  it('fails as upload_interrupted once its process stopped touching it, and its objects are removed', async () => {
    const { row, deleted, coordinator } = setup(true);
    await coordinator.tick();
    expect(row).toMatchObject({ status: 'failed', error: { code: 'upload_interrupted' }, filesRemoved: true });
    expect(deleted).toEqual(['b1']);
  });
});
