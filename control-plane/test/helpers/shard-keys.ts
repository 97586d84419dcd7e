/**
 * Which keys live in which shard, asked of Redis itself (CLUSTER KEYSLOT),
 * for tests that must show a loss stayed inside one shard.
 */
import type { Cluster } from 'ioredis';

export interface SlotRange { start: number; end: number }

/** Keys `prefix:0..count-1` that no longer hold their loaded value `v<i>`. */
export async function missingKeys(client: Cluster, prefix: string, count: number): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const keys = Array.from({ length: Math.min(count, start + 1000) - start }, (_, k) => `${prefix}:${start + k}`);
    const values = await Promise.all(keys.map((k) => client.get(k)));
    values.forEach((v, k) => { if (v !== `v${start + k}`) missing.push(keys[k]!); });
  }
  return missing;
}

/** The keys among `keys` whose slot is in `ranges`. */
export async function keysInSlots(client: Cluster, keys: string[], ranges: SlotRange[]): Promise<string[]> {
  const inside: string[] = [];
  for (let start = 0; start < keys.length; start += 1000) {
    const batch = keys.slice(start, start + 1000);
    const slots = await Promise.all(batch.map((k) => client.cluster('KEYSLOT', k).then(Number)));
    slots.forEach((s, k) => { if (ranges.some((r) => r.start <= s && s <= r.end)) inside.push(batch[k]!); });
  }
  return inside;
}
