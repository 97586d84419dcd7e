import { expect } from 'vitest';
import type { Cluster } from 'ioredis';
import type { Node, Topology } from '@strata/api';
import type { TestApi } from './api-client';
import { appClient, DurableWriter, loadKeys } from './workload';

/**
 * A new one-shard cluster, healthy, holding `keys` keys `k:<i>` (acknowledged by a replica), with a writer
 * (`w:<i>`, waiting for `writerReplicas` replicas) started on it, and the node of its first replica: what a
 * node-loss test needs before its fault.
 */
export async function loadedOneShard(
  api: TestApi, spec: { name: string; replicasPerShard: number; memoryMbPerShard: number }, writerReplicas = 1, keys = 2000,
): Promise<{ id: string; before: Topology; app: Cluster; writer: DurableWriter; replicaNode: Node }> {
  const created = await api.createCluster({ ...spec, shards: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const id = created.body.cluster.id;
  const before = await api.waitForHealthy(id, 60_000);
  const replica = before.shards[0]!.instances.find((i) => i.role === 'replica')!;
  const uri = (await api.connection(id)).body.uri;
  const app = appClient(uri);
  await loadKeys(app, 'k', keys, 1);
  const writer = new DurableWriter(appClient(uri), 'w', writerReplicas).start();
  const replicaNode = (await api.nodes()).body.items.find((n) => n.id === replica.nodeId)!;
  return { id, before, app, writer, replicaNode };
}
