import type { SlotRange } from '../domain';

/** Number of hash slots in a Redis Cluster. */
export const SLOT_COUNT = 16384;

/**
 * Splits the 16384 hash slots into one contiguous range per shard.
 * Range i is [floor(i*16384/n), floor((i+1)*16384/n) - 1], so sizes differ by at most one.
 */
export function planSlots(shards: number): SlotRange[] {
  if (!Number.isInteger(shards) || shards < 1 || shards > SLOT_COUNT) {
    throw new RangeError(`shards must be an integer between 1 and ${SLOT_COUNT}, got ${shards}`);
  }
  const ranges: SlotRange[] = [];
  for (let i = 0; i < shards; i++) {
    ranges.push({
      start: Math.floor((i * SLOT_COUNT) / shards),
      end: Math.floor(((i + 1) * SLOT_COUNT) / shards) - 1,
    });
  }
  return ranges;
}
