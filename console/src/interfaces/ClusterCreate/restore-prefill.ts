/**
 * The create wizard as a restore: its form prefilled from a backup's
 * manifest, the memory the data needs (the server's own rule,
 * restore-layout.ts), and what the wizard says about the backup.
 */
import { LIMITS, type Backup, type BackupManifest } from '@strata/api';
import { planRestore, restoreMemoryNeededMb } from '@strata/engine/restore-layout';
import type { ClusterFormValues } from './validation';

/** The wizard, restoring from this backup. */
export const restorePath = (backupId: string): string => `/clusters/new?restoreFrom=${encodeURIComponent(backupId)}`;

const SUFFIX = '-restored';

/** "<name>-restored" (then -2, -3, ... when taken), a valid cluster name whatever the source's name was (imports use host:port). */
export function restoreName(source: string, taken: readonly string[] = []): string {
  const base = source
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, LIMITS.name.max - SUFFIX.length - 3)
    .replace(/-+$/, '');
  const stem = `${base || 'backup'}${SUFFIX}`;
  if (!taken.includes(stem)) return stem;
  for (let i = 2; ; i++) if (!taken.includes(`${stem}-${i}`)) return `${stem}-${i}`;
}

/** The form as the backed-up cluster was: same shape, memory, durability, eviction, fencing, engine, TLS and client certificates; a new name. */
export function restoreFormValues(m: BackupManifest, taken: readonly string[] = []): ClusterFormValues {
  const spec = m.cluster.spec;
  return {
    name: restoreName(m.cluster.name, taken),
    shards: String(spec.shards),
    replicasPerShard: String(spec.replicasPerShard),
    memoryMbPerShard: Math.max(spec.memoryMbPerShard, restoreMemoryNeededMb(m.shards, spec.shards, planRestore(m.shards, spec.shards))),
    durability: spec.durability,
    evictionPolicy: spec.evictionPolicy,
    // Manifests written before a setting existed lack it: the default then.
    fencing: spec.fencing ?? 'off',
    engineVersion: spec.engineVersion ?? '7',
    tls: spec.tls ?? 'off',
    tlsClientAuth: spec.tlsClientAuth ?? 'none',
  };
}

/** What the memory field says when the backup's data cannot fit (null when it can, or the shard count is not a number yet). */
export function restoreMemoryProblem(m: BackupManifest, shards: string, memoryMbPerShard: number): string | null {
  const n = Number(shards);
  if (!Number.isInteger(n) || n < LIMITS.shards.min || n > LIMITS.shards.max) return null;
  const needed = restoreMemoryNeededMb(m.shards, n, planRestore(m.shards, n));
  return memoryMbPerShard < needed ? `Needs at least ${needed} MB per shard to hold the backup's data.` : null;
}

export interface RestoreSource {
  clusterName: string;
  bytes: number;
  keys: number;
  shards: number;
  takenAt: string;
}

/** The backup as the wizard names it (null until it is completed). */
export function restoreSource(b: Backup): RestoreSource | null {
  const m = b.manifest;
  if (b.status !== 'completed' || !m) return null;
  return {
    clusterName: m.cluster.name,
    bytes: m.shards.reduce((n, s) => n + s.bytes, 0),
    keys: m.shards.reduce((n, s) => n + s.keys, 0),
    shards: m.shards.length,
    takenAt: m.startedAt,
  };
}
