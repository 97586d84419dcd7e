import { describe, expect, it } from 'vitest';
import { BackupManifest, type Backup } from '@strata/api';
import { restoreFormValues, restoreMemoryProblem, restoreName, restorePath, restoreSource } from './restore-prefill';
import { validateClusterForm } from './validation';

const MB = 1024 * 1024;
const file = (shard: number, start: number, end: number, keys: number, usedMb: number) => ({
  shard, slots: [{ start, end }], file: `b/shard-${shard}.rdb`, bytes: 1000 * (shard + 1), sha256: 'x'.repeat(64), keys, keysWithExpiry: 0,
  usedMemoryBytes: usedMb * MB, source: { instanceId: '00000000-0000-4000-8000-000000000001', role: 'replica' as const, address: '127.0.1.2:7000' },
  snapshotAt: '2026-12-01T10:00:00.000Z', finishedAt: '2026-12-01T10:00:01.000Z',
});
const manifest: BackupManifest = BackupManifest.parse({
  formatVersion: 1, backupId: '00000000-0000-4000-8000-0000000000bb',
  cluster: {
    id: '00000000-0000-4000-8000-0000000000cc', name: 'orders',
    spec: {
      shards: 2, replicasPerShard: 1, memoryMbPerShard: 128, durability: 'aof-always', evictionPolicy: 'allkeys-lru', fencing: 'on',
      migrationPriority: 'balanced', engineVersion: '7', maintenanceWindow: null, tls: 'required', tlsClientAuth: 'required',
    },
  },
  engineVersion: '7.0.15', consistent: true, startedAt: '2026-12-01T10:00:00.000Z', finishedAt: '2026-12-01T10:00:02.000Z', skewMs: 0, writePauseMs: 12,
  shards: [file(0, 0, 8191, 1200, 40), file(1, 8192, 16383, 1300, 60)],
});

describe('restore prefill', () => {
  it('fills the wizard from the manifest: shape, memory, durability, eviction, fencing, TLS and a new name', () => {
    const v = restoreFormValues(manifest);
    expect(v).toEqual({
      name: 'orders-restored', shards: '2', replicasPerShard: '1', memoryMbPerShard: 128,
      durability: 'aof-always', evictionPolicy: 'allkeys-lru', fencing: 'on', tls: 'required', tlsClientAuth: 'required', engineVersion: '7',
    });
    // What it fills in is a valid request as it stands.
    expect(validateClusterForm(v).ok).toBe(true);
  });

  it('a manifest written before fencing, TLS and client certificates existed fills their defaults', () => {
    const { fencing: _f, tls: _t, tlsClientAuth: _c, engineVersion: _e, ...older } = manifest.cluster.spec;
    const v = restoreFormValues({ ...manifest, cluster: { ...manifest.cluster, spec: older as typeof manifest.cluster.spec } });
    expect(v).toMatchObject({ fencing: 'off', engineVersion: '7', tls: 'off', tlsClientAuth: 'none' });
    expect(validateClusterForm(v).ok).toBe(true);
  });

  it('raises the memory to what the largest shard used when the cluster had less', () => {
    const small = { ...manifest, cluster: { ...manifest.cluster, spec: { ...manifest.cluster.spec, memoryMbPerShard: 32 } } };
    expect(restoreFormValues(small).memoryMbPerShard).toBe(60);
  });

  it('suggests a name that is free and valid, whatever the source was called', () => {
    expect(restoreName('orders', ['orders-restored'])).toBe('orders-restored-2');
    expect(restoreName('orders', ['orders-restored', 'orders-restored-2'])).toBe('orders-restored-3');
    expect(restoreName('10.0.0.5:6379')).toBe('backup-restored');
    expect(restoreName('Legacy Cache')).toBe('legacy-cache-restored');
    const long = restoreName('a'.repeat(60), ['a'.repeat(28) + '-restored']);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(validateClusterForm({ ...restoreFormValues(manifest), name: long }).ok).toBe(true);
  });

  it('says at the memory field what the data needs, for the same layout and for another shard count', () => {
    expect(restoreMemoryProblem(manifest, '2', 64)).toBeNull();
    expect(restoreMemoryProblem(manifest, '2', 32)).toBe("Needs at least 60 MB per shard to hold the backup's data.");
    // Keys moved into 4 shards: an even share of 100 MB plus 10%.
    expect(restoreMemoryProblem(manifest, '4', 16)).toBe("Needs at least 28 MB per shard to hold the backup's data.");
    expect(restoreMemoryProblem(manifest, '4', 32)).toBeNull();
    expect(restoreMemoryProblem(manifest, '', 32)).toBeNull();
  });

  it('names the backup: size, keys, shards and when it was taken; nothing for a backup not completed', () => {
    const b = { id: manifest.backupId, status: 'completed', manifest } as Backup;
    expect(restoreSource(b)).toEqual({ clusterName: 'orders', bytes: 3000, keys: 2500, shards: 2, takenAt: '2026-12-01T10:00:00.000Z' });
    expect(restoreSource({ ...b, status: 'running', manifest: null })).toBeNull();
    expect(restorePath(b.id)).toBe(`/clusters/new?restoreFrom=${b.id}`);
  });
});
