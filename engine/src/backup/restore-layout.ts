import type { SlotRange } from '../domain';
import { planSlots } from '../redis/slots.planner';

/** What a backup's shards say about themselves, for planning a restore. */
export interface BackupShardLayout {
  slots: readonly SlotRange[];
  usedMemoryBytes: number;
}

/**
 * How a backup is restored into a new cluster of `shards` shards:
 * - `seed`: each backup file seeds the new primary of its index (loaded at
 *   its first start). Only when the shard counts match and shard i of the
 *   backup owned exactly the slots a new cluster gives shard i.
 * - `move`: the new cluster starts empty; each file is loaded into a
 *   temporary engine and its keys are moved by slot into the new cluster.
 *   Any other layout (other shard count, or a backup taken after a reshard).
 */
export type RestorePlan =
  | { mode: 'seed' }
  | { mode: 'move'; reason: string };

const MiB = 1024 * 1024;

/** Headroom on top of an even share of the data when keys are moved: keys never spread over slots exactly evenly. */
const MOVE_HEADROOM = 1.1;

export function planRestore(backupShards: readonly BackupShardLayout[], shards: number): RestorePlan {
  if (shards !== backupShards.length) return { mode: 'move', reason: `the backup has ${backupShards.length} shard(s), the new cluster ${shards}` };
  const mismatch = restoreLayoutMismatch(backupShards);
  if (!mismatch) return { mode: 'seed' };
  const show = (r: SlotRange) => `${r.start}-${r.end}`;
  return { mode: 'move', reason: `shard ${mismatch.shard} of the backup owned slots ${mismatch.backup.map(show).join(', ')}, a new cluster's owns ${show(mismatch.fresh)}` };
}

/**
 * Memory each new primary needs to hold the restored data (MB): the largest
 * shard's when files seed shards one to one; an even share of all of it,
 * plus 10%, when keys are moved.
 */
export function restoreMemoryNeededMb(backupShards: readonly BackupShardLayout[], shards: number, plan: RestorePlan): number {
  if (plan.mode === 'seed') return Math.ceil(Math.max(0, ...backupShards.map((s) => s.usedMemoryBytes)) / MiB);
  const total = backupShards.reduce((n, s) => n + s.usedMemoryBytes, 0);
  return Math.ceil((total / shards) * MOVE_HEADROOM / MiB);
}

/**
 * Can each backup file seed the new cluster's shard of the same index? Only
 * when shard i of the backup owned exactly the slots a new cluster of that
 * many shards gives shard i: a backup taken after a reshard has shards with
 * other (often scattered) slots. Returns the first shard that differs, or
 * null when every shard matches.
 */
export function restoreLayoutMismatch(backupShards: readonly { slots: readonly SlotRange[] }[]): { shard: number; backup: SlotRange[]; fresh: SlotRange } | null {
  const fresh = planSlots(backupShards.length);
  for (let i = 0; i < backupShards.length; i++) {
    const merged = normalize(backupShards[i]!.slots);
    const want = fresh[i]!;
    if (merged.length !== 1 || merged[0]!.start !== want.start || merged[0]!.end !== want.end) return { shard: i, backup: merged, fresh: want };
  }
  return null;
}

/** Sorted, with touching ranges joined. */
function normalize(ranges: readonly SlotRange[]): SlotRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: SlotRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
