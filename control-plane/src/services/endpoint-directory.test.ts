import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { EndpointDirectory } from './endpoint-directory';
import type { ClusterRow, ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import type { ObservedState } from '../observed/observed-state';

const inst = (id: string, nodeId: string, role: 'primary' | 'replica', shardIndex: number, port: number, secondPort: number | null = null) =>
  ({ id, clusterId: 'c1', nodeId, role, shardIndex, port, secondPort }) as InstanceRow;

function directory(cluster: Partial<ClusterRow>, silent: string[] = [], now?: () => number) {
  const instances = [inst('r0', 'n2', 'replica', 0, 7001, 7101), inst('p0', 'n1', 'primary', 0, 7000, 7100), inst('p1', 'n2', 'primary', 1, 7002, 7102)];
  const nodes = [{ id: 'n1', name: 'node-1', address: '10.0.0.1' }, { id: 'n2', name: 'node-2', address: '10.0.0.2' }] as NodeRow[];
  return new EndpointDirectory({
    pool: {} as pg.Pool,
    clusters: { withEndpoints: async () => [{ id: 'c1', endpointPort: 6379, ...cluster }], allInstances: async () => instances } as unknown as ClusterStore,
    nodes: { list: async () => nodes } as unknown as NodeStore,
    observed: { isSilent: (id: string) => silent.includes(id) } as unknown as ObservedState,
    host: '10.0.0.200',
    portBase: 6379,
    ...(now ? { now } : {}),
  });
}

describe('EndpointDirectory', () => {
  it('tells agents one endpoint per cluster, primaries first, live nodes only', async () => {
    const list = await directory({}, ['n1']).forAgents();
    expect(list).toEqual({ host: '10.0.0.200', items: [{ clusterId: 'c1', port: 6379, targets: ['10.0.0.2:7002', '10.0.0.2:7001'] }] });
  });

  it('while both protocols are served, a second endpoint forwards to the instances\' second ports', async () => {
    const dir = directory({ endpointSecondPort: 6380 });
    const list = await dir.forAgents();
    expect(list.items).toEqual([
      { clusterId: 'c1', port: 6379, targets: ['10.0.0.1:7000', '10.0.0.2:7002', '10.0.0.2:7001'] },
      { clusterId: 'c1', port: 6380, targets: ['10.0.0.1:7100', '10.0.0.2:7102', '10.0.0.2:7101'] },
    ]);
    expect(dir.secondFor({ endpointSecondPort: 6380 } as ClusterRow)).toBe('10.0.0.200:6380');
    expect(dir.secondFor({ endpointSecondPort: null } as ClusterRow)).toBeNull();
  });

  it('a second endpoint lingering after its protocol moved to the own ports forwards to them until its time is up', async () => {
    let now = 1_000_000;
    const dir = directory({ endpointLinger: { port: 6380, untilMs: 1_060_000 } }, [], () => now);
    expect((await dir.forAgents()).items).toEqual([
      { clusterId: 'c1', port: 6379, targets: ['10.0.0.1:7000', '10.0.0.2:7002', '10.0.0.2:7001'] },
      { clusterId: 'c1', port: 6380, targets: ['10.0.0.1:7000', '10.0.0.2:7002', '10.0.0.2:7001'] },
    ]);
    now = 1_060_001;
    expect((await dir.forAgents()).items.map((i) => i.port)).toEqual([6379]);
    // Not a second endpoint of the connection details meanwhile.
    expect(dir.secondFor({ endpointSecondPort: null, endpointLinger: { port: 6380, untilMs: 1_060_000 } } as ClusterRow)).toBeNull();
  });
});
