import type { ClusterSpec } from '@strata/api';

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
