/**
 * Room for a new cluster, found by asking the placement planner itself (the
 * one cluster creation runs), and the words for a shape that does not fit. Used
 * by GET /v1/capacity (the wizard's bounds) and by cluster creation's 422.
 */
import { LIMITS } from '@strata/api';
import { planPlacement, type PlacementNode, type PlacementResult } from '@strata/engine';

export interface Shape {
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard: number;
}

/** The largest n in [lo, hi] for which `ok(n)` holds (ok is monotone: true then false), or lo - 1 when none. */
export function largest(lo: number, hi: number, ok: (n: number) => boolean): number {
  if (hi < lo || !ok(lo)) return lo - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const fits = (nodes: PlacementNode[], s: Shape) => planPlacement({ ...s, nodes }).ok;

/** The most memory one shard with these replicas can get now (0: none). */
export function maxMemoryMbPerShard(nodes: PlacementNode[], replicasPerShard: number): number {
  const top = Math.max(0, ...nodes.filter((n) => n.online).map((n) => n.memoryMb - n.usedMemoryMb));
  return Math.max(0, largest(1, Math.min(top, LIMITS.memoryMbPerShard.max), (mb) => fits(nodes, { shards: 1, replicasPerShard, memoryMbPerShard: mb })));
}

/** The most shards of this size and replicas placeable now (0: none). */
export function maxShards(nodes: PlacementNode[], replicasPerShard: number, memoryMbPerShard: number): number {
  return Math.max(0, largest(1, LIMITS.shards.max, (shards) => fits(nodes, { shards, replicasPerShard, memoryMbPerShard })));
}

/** "512 MB", "4 GB", "1.5 GB"; room is rounded down ("1.9 GB" for 2,016 MB), so it never names a size that does not fit. */
export function formatMb(mb: number): string {
  if (mb < 1024) return `${mb} MB`;
  const gb = Math.floor((mb / 1024) * 10) / 10;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export type ShapeField = 'shards' | 'replicasPerShard' | 'memoryMbPerShard';

/**
 * Why a shape the planner refused does not fit, at the field at fault: too
 * few nodes for the copies is the replicas; a single shard of this size not
 * fitting is the memory; otherwise it is the number of shards. Human units.
 */
export function placementProblem(nodes: PlacementNode[], s: Shape, failed: Extract<PlacementResult, { ok: false }>): { field: ShapeField; message: string } {
  const online = nodes.filter((n) => n.online).length;
  if (failed.code === 'no_nodes') return { field: 'shards', message: 'No node is taking new clusters right now, so nothing can be placed.' };
  if (failed.code === 'too_few_nodes') {
    const copies = s.replicasPerShard + 1;
    return {
      field: 'replicasPerShard',
      message: `${plural(s.replicasPerShard, 'replica')} per shard need ${copies} online nodes (a primary and each replica on different nodes); ${online} ${online === 1 ? 'is' : 'are'} online. At most ${plural(Math.max(0, online - 1), 'replica')}.`,
    };
  }
  const withReplicas = s.replicasPerShard ? ` with ${plural(s.replicasPerShard, 'replica')}` : '';
  const memMax = maxMemoryMbPerShard(nodes, s.replicasPerShard);
  if (s.memoryMbPerShard > memMax) {
    return {
      field: 'memoryMbPerShard',
      message: memMax > 0
        ? `No room for ${formatMb(s.memoryMbPerShard)} per shard${withReplicas}: at most ${formatMb(memMax)} per shard fits now.`
        : `No room for ${formatMb(s.memoryMbPerShard)} per shard${withReplicas}: no size fits now.`,
    };
  }
  const most = maxShards(nodes, s.replicasPerShard, s.memoryMbPerShard);
  return {
    field: 'shards',
    message: `${plural(s.shards, 'shard')} of ${formatMb(s.memoryMbPerShard)}${withReplicas} do not fit on the nodes now. At most ${plural(most, 'shard')} of this size fit.`,
  };
}
