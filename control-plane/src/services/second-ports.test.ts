import { describe, expect, it } from 'vitest';
import type { PlacementNode, TlsLayout } from '@strata/engine';
import type { ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { Db } from '../db/tx';
import { holdSecondPorts } from './second-ports';

const node: PlacementNode = { id: 'n1', name: 'node-1', online: true, memoryMb: 1024, usedMemoryMb: 0, usedPorts: [7000, 7001], sparePorts: [7999] };

function deps(layout: TlsLayout, endpoint: { port: number | null; second?: number | null } = { port: null }) {
  const held = new Map<string, number>();
  const endpoints: (number | null)[] = [];
  const clusters = {
    get: async () => ({ tlsLayout: layout, endpointPort: endpoint.port, endpointSecondPort: endpoint.second ?? null }),
    setSecondPorts: async (ports: Map<string, number>) => { for (const [k, v] of ports) held.set(k, v); },
    freeEndpointPort: async (from: number) => from + 2,
    setEndpointSecondPort: async (_id: string, port: number | null) => { endpoints.push(port); },
  } as unknown as ClusterStore;
  return { d: { clusters, placement: { placementNodes: async () => [node] } }, held, endpoints };
}
const row = (id: string, secondPort: number | null = null) => ({ id, nodeId: 'n1', port: 7001, secondPort }) as InstanceRow;

describe('holdSecondPorts', () => {
  it('an instance added while both protocols are served gets a free port of its node; one that has one keeps it', async () => {
    const { d, held } = deps('plain+tls');
    const added = row('new');
    await holdSecondPorts(d, 'c', [added, row('old', 7100)], {} as Db);
    expect(held).toEqual(new Map([['new', 7002]]));
    expect(added.secondPort).toBe(7002);
  });

  it('nothing while one protocol is served', async () => {
    for (const layout of ['plain', 'tls'] as const) {
      const { d, held, endpoints } = deps(layout, { port: 6379 });
      await holdSecondPorts(d, 'c', [row('new')], {} as Db);
      expect(held.size).toBe(0);
      expect(endpoints).toEqual([]);
    }
  });

  it('a cluster with a stable endpoint holds a second endpoint port (a free one from its own up) while both are served, once', async () => {
    const first = deps('plain+tls', { port: 6379 });
    await holdSecondPorts(first.d, 'c', [row('a', 7100)], {} as Db);
    expect(first.endpoints).toEqual([6381]);
    const already = deps('tls+plain', { port: 6379, second: 6381 });
    await holdSecondPorts(already.d, 'c', [row('new')], {} as Db);
    expect(already.endpoints).toEqual([]);
    const none = deps('plain+tls', { port: null });
    await holdSecondPorts(none.d, 'c', [row('new')], {} as Db);
    expect(none.endpoints).toEqual([]);
  });
});
