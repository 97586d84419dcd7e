import type { SlotRange } from '../domain';
import { planSlots } from '../redis/slots.planner';

/**
 * Can each backup file seed the new cluster's shard of the same index? Only
 * when shard i of the backup owned exactly the slots a new cluster of that
 * many shards gives shard i: a backup taken after a reshard has shards with
 * other (often scattered) slots, and loading its files into an even split
 * would leave keys in slots their shard does not own, unreachable. Returns
 * the first shard that differs, or null when every shard matches.
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
