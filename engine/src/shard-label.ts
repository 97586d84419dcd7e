/**
 * How a shard is named to people, everywhere: the console, API error
 * messages, events, operation steps and the plan preview. Shards count from 1
 * ("Shard 1" .. "Shard N"); the 0-based `index` stays in machine fields only
 * (`shard`, `shardIndex`, `fromShard` in JSON, URLs, task payloads).
 */

/** The number people see for a 0-based shard index: 0 -> 1. */
export function shardNumber(index: number): number {
  return index + 1;
}

/** "Shard 2" for index 1: at the start of a sentence or as a label. */
export function shardLabel(index: number): string {
  return `Shard ${shardNumber(index)}`;
}

/** "shard 2" for index 1: inside a sentence. */
export function shardName(index: number): string {
  return `shard ${shardNumber(index)}`;
}

/** "shards 1 and 3", "shards 1, 2 and 4", "shard 2": several 0-based indexes inside a sentence. */
export function shardNames(indexes: readonly number[]): string {
  const n = [...indexes].sort((a, b) => a - b).map(shardNumber);
  if (n.length === 1) return `shard ${n[0]}`;
  return `shards ${n.slice(0, -1).join(', ')} and ${n.at(-1)}`;
}
