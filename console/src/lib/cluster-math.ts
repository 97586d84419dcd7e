import type { ClusterSpec, Node } from '@strata/api';

/** Numbers derived from a cluster's shape, used by the list, the wizard summary and the cluster page. */
export interface ClusterShape {
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard: number;
}

export function instanceCount(s: ClusterShape): number {
  return s.shards * (1 + s.replicasPerShard);
}

/** Memory the dataset can use (primaries only). */
export function datasetMemoryMb(s: ClusterShape): number {
  return s.shards * s.memoryMbPerShard;
}

/** Memory reserved on nodes (primaries + replicas). */
export function reservedMemoryMb(s: ClusterShape): number {
  return instanceCount(s) * s.memoryMbPerShard;
}

export function slotsPerShard(shards: number): number {
  return Math.ceil(16384 / Math.max(1, shards));
}

export function shapeLabel(spec: Pick<ClusterSpec, 'shards' | 'replicasPerShard'>): string {
  return `${spec.shards} × ${spec.replicasPerShard}`;
}

export interface PlacementSummary {
  onlineNodes: number;
  /** Distinct nodes the cluster will occupy at most. */
  nodesUsed: number;
  /** Each shard needs 1 + replicas distinct nodes. */
  nodesNeededPerShard: number;
  freeMemoryMb: number;
  /** The problem that makes the request unplaceable, keyed by field; null when it looks placeable. */
  problem: { field: 'replicasPerShard' | 'memoryMbPerShard'; message: string } | null;
  memoryWarning: string | null;
}

/**
 * A client-side preview of placement: each shard's primary and replicas go on
 * distinct nodes. The server decides for real (422 `unplaceable`); this only
 * shows the obvious problems before the user submits.
 */
export function previewPlacement(s: ClusterShape, nodes: readonly Node[]): PlacementSummary {
  const online = nodes.filter((n) => n.status === 'online' && !n.draining);
  const free = online.map((n) => Math.max(0, n.capacity.memoryMb - n.capacity.usedMemoryMb));
  const freeMemoryMb = free.reduce((a, b) => a + b, 0);
  const nodesNeededPerShard = 1 + s.replicasPerShard;
  const nodesUsed = Math.min(online.length, instanceCount(s));
  let problem: PlacementSummary['problem'] = null;
  if (nodesNeededPerShard > online.length) {
    problem = {
      field: 'replicasPerShard',
      message:
        online.length === 0
          ? 'No node is online, so nothing can be placed.'
          : `${s.replicasPerShard} ${s.replicasPerShard === 1 ? 'replica' : 'replicas'} per shard need ${nodesNeededPerShard} online nodes (a primary and each replica on different nodes); only ${online.length} ${online.length === 1 ? 'is' : 'are'} online.`,
    };
  } else if (online.length > 0 && s.memoryMbPerShard > Math.max(...free)) {
    problem = {
      field: 'memoryMbPerShard',
      message: `No online node has ${s.memoryMbPerShard} MB free for one instance (largest free: ${Math.max(...free)} MB).`,
    };
  }
  const reserved = reservedMemoryMb(s);
  const memoryWarning =
    !problem && online.length > 0 && reserved > freeMemoryMb
      ? `This needs ${reserved} MB in total but the online nodes have ${freeMemoryMb} MB free.`
      : null;
  return { onlineNodes: online.length, nodesUsed, nodesNeededPerShard, freeMemoryMb, problem, memoryWarning };
}
