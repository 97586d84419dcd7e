/**
 * What the nodes can hold, from GET /v1/capacity: bounds the server's own
 * placement planner computed for the shape asked (replicas, memory, shards),
 * no per-node free memory (that follows other organizations' usage). The
 * wizard and the API agree; messages speak in the units the user chose.
 */
import { LIMITS, type Capacity } from '@strata/api';
import { formatMemoryMb, plural } from './format';
import { instanceCount, type ClusterShape } from './cluster-math';

export type CapacityField = 'shards' | 'replicasPerShard' | 'memoryMbPerShard';

export interface CapacityCheck {
  ok: boolean;
  /** The field at fault and why, when it does not fit. */
  problem: { field: CapacityField; message: string } | null;
  /** Distinct nodes the cluster would occupy (from the plan), when it fits and the server was asked. */
  nodesUsed: number | null;
  onlineNodes: number;
}

/** Whether these bounds were computed for this shape's replicas and memory (a re-query may still be on its way). */
export function boundsMatch(c: Capacity, s: ClusterShape): boolean {
  return c.replicasPerShard === s.replicasPerShard && c.memoryMbPerShard === s.memoryMbPerShard;
}

/** Free room, rounded down: "1.9 GB" for 2,016 MB, never a size that does not fit. */
export function formatRoomMb(mb: number): string {
  if (mb < 1024) return `${mb} MB`;
  const gb = Math.floor((mb / 1024) * 10) / 10;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

/** Room in the unit of the size chosen: "0.9 GB" beside a 1 GB choice, "1000 MB" beside 512 MB. Rounded down. */
export function formatRoomLike(roomMb: number, chosenMb: number): string {
  if (chosenMb < 1024) return `${roomMb} MB`;
  const gb = Math.floor((roomMb / 1024) * 10) / 10;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

/** The sizes a menu should offer: those at most `maxMb`. */
export function offeredSizes(options: readonly number[], maxMb: number): number[] {
  return options.filter((mb) => mb <= maxMb);
}

const ordinal = (n: number) => (n === 1 ? 'largest' : `${n}${n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}-largest`);

/**
 * Whether the nodes can hold this shape, and if not, the field at fault with
 * a message in the user's units that suggests a size the menu offers
 * (`options`, the memory menu's sizes). Null while the bounds on hand were
 * computed for other replicas (or, for the shard count, another memory size):
 * the re-query for this shape is on its way.
 */
export function checkCapacity(c: Capacity, s: ClusterShape, options: readonly number[] = []): CapacityCheck | null {
  const base = { onlineNodes: c.onlineNodes };
  const copies = 1 + s.replicasPerShard;
  if (c.onlineNodes === 0) {
    return { ...base, ok: false, nodesUsed: null, problem: { field: 'shards', message: 'No node is taking new clusters right now, so nothing can be placed.' } };
  }
  if (copies > c.onlineNodes) {
    return {
      ...base, ok: false, nodesUsed: null,
      problem: {
        field: 'replicasPerShard',
        message: `${plural(s.replicasPerShard, 'replica')} per shard need ${copies} online nodes (a primary and each replica on different nodes); ${c.onlineNodes} ${c.onlineNodes === 1 ? 'is' : 'are'} online. At most ${plural(c.maxReplicasPerShard, 'replica')}.`,
      },
    };
  }
  if (c.replicasPerShard !== s.replicasPerShard) return null;
  const maxMem = c.maxMemoryMbPerShard;
  if (s.memoryMbPerShard > maxMem) {
    const room = formatRoomLike(maxMem, s.memoryMbPerShard);
    const where = copies === 1 ? `the largest free node has ${room}` : `${copies} different nodes are needed and the ${ordinal(copies)} free node has ${room}`;
    const offered = options.length ? offeredSizes(options, maxMem).at(-1) : maxMem;
    const advice = offered === undefined || offered <= 0 ? 'No size fits now: choose fewer replicas or try later.' : `Choose ${formatMemoryMb(offered)} or less.`;
    return {
      ...base, ok: false, nodesUsed: null,
      problem: { field: 'memoryMbPerShard', message: `No room for ${formatMemoryMb(s.memoryMbPerShard)} per shard: ${where}. ${advice}` },
    };
  }
  if (!boundsMatch(c, s)) return null;
  if (s.shards > c.maxShards) {
    return {
      ...base, ok: false, nodesUsed: null,
      problem: {
        field: 'shards',
        message: `${plural(instanceCount(s), 'instance')} of ${formatMemoryMb(s.memoryMbPerShard)} do not fit on the nodes now. At most ${plural(c.maxShards, 'shard')} of this size fit.`,
      },
    };
  }
  return { ...base, ok: true, problem: null, nodesUsed: c.nodesUsed };
}

/** What a form may offer for a shape, from the bounds on hand: the wizard's and the Settings tab's one source. */
export interface ShapeBounds {
  /** Whether it fits, with the field at fault and why (null while the bounds on hand are for another shape). */
  check: CapacityCheck | null;
  shardsMax: number;
  replicasMax: number;
  /** Most memory per shard for the replicas asked, when known. */
  memoryMax: number | undefined;
  /** The memory menu: sizes that fit, and the current choice even when it does not (marked by the caller). */
  memoryOptions: number[];
}

/**
 * `askReplicas`: the replicas the bounds were asked for (the choice, capped
 * at the most placeable so the memory menu stays meaningful).
 */
export function shapeBounds(c: Capacity | undefined, shape: ClusterShape | null, askReplicas: number, memoryMb: number, options: readonly number[]): ShapeBounds {
  const check = shape && c ? checkCapacity(c, shape, options) : null;
  const forReplicas = c && c.replicasPerShard === askReplicas ? c : undefined;
  const memoryMax = forReplicas?.maxMemoryMbPerShard;
  const shardsMax = shape && c && boundsMatch(c, shape) && memoryMb <= c.maxMemoryMbPerShard ? Math.max(1, c.maxShards) : LIMITS.shards.max;
  const replicasMax = c ? c.maxReplicasPerShard : LIMITS.replicasPerShard.max;
  const offered = memoryMax === undefined ? [...options] : offeredSizes(options, memoryMax);
  const memoryOptions = offered.includes(memoryMb) ? offered : [...offered, memoryMb].sort((a, b) => a - b);
  return { check, shardsMax, replicasMax, memoryMax, memoryOptions };
}

/** The shards field's hint: "1–12 fit now." */
export function shardsHint(max: number): string {
  return `${LIMITS.shards.min}–${max}${max < LIMITS.shards.max ? ' fit now' : ''}.`;
}

/** The replicas field's hint: "0–2 (one node per copy)." */
export function replicasHint(max: number): string {
  return `${LIMITS.replicasPerShard.min}–${max}${max < LIMITS.replicasPerShard.max ? ' (one node per copy)' : ''}.`;
}

/** The memory field's hint. */
export function memoryHint(memoryMax: number | undefined, replicas: number): string {
  return memoryMax !== undefined
    ? `maxmemory of each instance; replicas get the same. Up to ${formatRoomMb(memoryMax)} per shard fits now with ${plural(replicas, 'replica')}.`
    : 'maxmemory of each instance; replicas get the same.';
}

/** A valid cluster name close to what was typed: "My Cluster" -> "my-cluster". Null when nothing usable remains. */
export function suggestName(input: string, max = 40): string | null {
  let s = input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
  if (s.length < 2) return null;
  s = s.replace(/-{2,}/g, '-');
  return s === input ? null : s;
}
