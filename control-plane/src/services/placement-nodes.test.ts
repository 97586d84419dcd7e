/**
 * Placement sees restores' temporary engines: while a move restore's
 * standalone engines hold backup files on a node, that memory is not free
 * for a cluster created beside it (ClusterService.placementNodes, with fakes).
 */
import { describe, expect, it } from 'vitest';
import { planPlacement } from '@strata/engine';
import { ClusterService, type ClusterServiceDeps } from './cluster.service';

const MiB = 1024 * 1024;

function service(temporary: Map<string, number> | undefined): ClusterService {
  const nodes = ['n1', 'n2'].map((id) => ({ id, name: id, memoryMb: 1024, draining: false }));
  const deps = {
    nodes: { list: async () => nodes, silentForMs: () => 0 },
    // One 128 MB instance of another cluster on n2.
    clusters: { allInstances: async () => [{ nodeId: 'n2', memoryMb: 128, port: 7000 }] },
    observed: { enginePorts: () => [], sparePorts: () => [], unreachableByPeers: () => false },
    liveness: { nodeOfflineAfterMs: 5000, nodeDownAfterMs: 15_000, nodeDownConfirmedAfterMs: 4500 },
    ...(temporary ? { temporaryEngineMemory: async () => temporary } : {}),
  } as unknown as ClusterServiceDeps;
  return new ClusterService(deps);
}

describe('placement and restores\' temporary engines', () => {
  it('counts the memory a temporary engine holds on its node as used (rounded up to MB)', async () => {
    const plain = await service(undefined).placementNodes(null as never);
    expect(plain.map((n) => [n.id, n.usedMemoryMb])).toEqual([['n1', 0], ['n2', 128]]);
    const busy = await service(new Map([['n1', 600 * MiB + 1]])).placementNodes(null as never);
    expect(busy.map((n) => [n.id, n.usedMemoryMb])).toEqual([['n1', 601], ['n2', 128]]);
  });

  it('a create beside a restore is placed around its temporary engine, or refused, instead of overcommitting the node', async () => {
    const want = { shards: 3, replicasPerShard: 0, memoryMbPerShard: 512 };
    // 1,536 MB fit in the 1,920 MB free without the restore...
    const free = planPlacement({ ...want, nodes: await service(new Map()).placementNodes(null as never) });
    expect(free.ok).toBe(true);
    // ...but not beside a temporary engine holding 600 MB on n1.
    const beside = planPlacement({ ...want, nodes: await service(new Map([['n1', 600 * MiB]])).placementNodes(null as never) });
    expect(beside).toMatchObject({ ok: false, code: 'insufficient_memory' });
    // One 512 MB shard still fits, on n2 (n1 has 424 MB left).
    const one = planPlacement({ shards: 1, replicasPerShard: 0, memoryMbPerShard: 512, nodes: await service(new Map([['n1', 600 * MiB]])).placementNodes(null as never) });
    expect(one.ok && one.instances.map((i) => i.nodeId)).toEqual(['n2']);
  });
});

describe('placement and node liveness', () => {
  it('a node declared down (silent past the confirmed timeout, its peers cannot reach it) is not online, even before it is offline by silence', async () => {
    const nodes = [{ id: 'n1', name: 'n1', memoryMb: 1024, draining: false }, { id: 'n2', name: 'n2', memoryMb: 1024, draining: false }];
    const placement = (unreachable: boolean) => new ClusterService({
      nodes: { list: async () => nodes, silentForMs: (n: { id: string }) => (n.id === 'n1' ? 4600 : 100) },
      clusters: { allInstances: async () => [] },
      observed: { enginePorts: () => [], sparePorts: () => [], unreachableByPeers: () => unreachable },
      liveness: { nodeOfflineAfterMs: 5000, nodeDownAfterMs: 15_000, nodeDownConfirmedAfterMs: 4500 },
    } as unknown as ClusterServiceDeps).placementNodes(null as never);
    expect((await placement(true)).map((n) => [n.id, n.online])).toEqual([['n1', false], ['n2', true]]);
    expect((await placement(false)).map((n) => [n.id, n.online])).toEqual([['n1', true], ['n2', true]]);
  });
});
