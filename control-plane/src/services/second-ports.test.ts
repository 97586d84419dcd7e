import { describe, expect, it } from 'vitest';
import type { PlacementNode, TlsLayout } from '@strata/engine';
import type { ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { Db } from '../db/tx';
import { holdSecondPorts } from './second-ports';

const node: PlacementNode = { id: 'n1', name: 'node-1', online: true, memoryMb: 1024, usedMemoryMb: 0, usedPorts: [7000, 7001], sparePorts: [7999] };

function deps(layout: TlsLayout) {
  const held = new Map<string, number>();
  const clusters = {
    get: async () => ({ tlsLayout: layout }),
    setSecondPorts: async (ports: Map<string, number>) => { for (const [k, v] of ports) held.set(k, v); },
  } as unknown as ClusterStore;
  return { d: { clusters, placement: { placementNodes: async () => [node] } }, held };
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
      const { d, held } = deps(layout);
      await holdSecondPorts(d, 'c', [row('new')], {} as Db);
      expect(held.size).toBe(0);
    }
  });
});
