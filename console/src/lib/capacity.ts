/**
 * What the nodes can hold, from GET /v1/capacity (anonymous free memory per
 * schedulable node). The check runs the server's own placement planner, so
 * the wizard and the API agree; messages speak in the units the user chose.
 */
import type { Capacity } from '@strata/api';
import { planPlacement, type PlacementNode } from '@strata/engine/placement';
import { formatMemoryMb, plural } from './format';
import { instanceCount, type ClusterShape } from './cluster-math';

export type CapacityField = 'shards' | 'replicasPerShard' | 'memoryMbPerShard';

export interface CapacityCheck {
  ok: boolean;
  /** The field at fault and why, when it does not fit. */
  problem: { field: CapacityField; message: string } | null;
  /** Distinct nodes the cluster would occupy (from the plan), when it fits. */
  nodesUsed: number | null;
  onlineNodes: number;
  freeMemoryMb: number;
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

function anonymousNodes(c: Capacity): PlacementNode[] {
  return c.nodeFreeMemoryMb.map((free, i) => ({ id: `n${i}`, name: `n${String(i).padStart(4, '0')}`, online: true, memoryMb: free, usedMemoryMb: 0, usedPorts: [] }));
}

/** The most memory per shard a cluster with this many replicas can get: every copy needs its own node. */
export function maxMemoryMbPerShard(c: Capacity, replicasPerShard: number): number {
  return c.nodeFreeMemoryMb[replicasPerShard] ?? 0;
}

export function fits(c: Capacity, s: ClusterShape): boolean {
  return planPlacement({ ...s, nodes: anonymousNodes(c) }).ok;
}

/** The most shards placeable with these replicas and memory (0 when not even one fits). */
export function maxShards(c: Capacity, replicasPerShard: number, memoryMbPerShard: number, limit: number): number {
  if (!fits(c, { shards: 1, replicasPerShard, memoryMbPerShard })) return 0;
  let lo = 1;
  let hi = limit;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(c, { shards: mid, replicasPerShard, memoryMbPerShard })) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Whether the nodes can hold this shape, and if not, the field at fault with
 * a message in the user's units that suggests a size the menu offers
 * (`options`, the memory menu's sizes).
 */
export function checkCapacity(c: Capacity, s: ClusterShape, shardLimit = 64, options: readonly number[] = []): CapacityCheck {
  const freeMemoryMb = c.nodeFreeMemoryMb.reduce((a, b) => a + b, 0);
  const base = { onlineNodes: c.onlineNodes, freeMemoryMb };
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
  const maxMem = maxMemoryMbPerShard(c, s.replicasPerShard);
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
  const plan = planPlacement({ ...s, nodes: anonymousNodes(c) });
  if (!plan.ok) {
    const most = maxShards(c, s.replicasPerShard, s.memoryMbPerShard, shardLimit);
    return {
      ...base, ok: false, nodesUsed: null,
      problem: {
        field: 'shards',
        message: `${plural(instanceCount(s), 'instance')} of ${formatMemoryMb(s.memoryMbPerShard)} do not fit on the nodes now. At most ${plural(most, 'shard')} of this size fit.`,
      },
    };
  }
  return { ...base, ok: true, problem: null, nodesUsed: new Set(plan.instances.map((i) => i.nodeId)).size };
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
