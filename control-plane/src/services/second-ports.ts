/**
 * Second ports of an in-place TLS switch: while a cluster serves both protocols, each of its instances serves the
 * other one on a port of its own, taken from placement's ports on its node (counted in the node's used ports from
 * then on, so no instance, bus port or spare gets it) and released when one protocol is left. The switch holds them
 * for the instances it starts with; an instance added meanwhile (a reshard, a rebuilt or drained copy) gets one here.
 * Call under the placement lock, after the rows are inserted.
 */
import { planSecondPorts, servesBoth, type TlsLayout } from '@strata/engine';
import type { Db } from '../db/tx';
import type { ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { ClusterService } from './cluster.service';

export async function holdSecondPorts(
  d: { clusters: ClusterStore; placement: Pick<ClusterService, 'placementNodes'> }, clusterId: string, rows: InstanceRow[], db: Db, layout?: TlsLayout,
): Promise<void> {
  const serves = layout ?? (await d.clusters.get(clusterId, undefined, db))?.tlsLayout;
  const without = rows.filter((r) => !r.secondPort);
  if (!serves || !servesBoth(serves) || !without.length) return;
  const ports = planSecondPorts(await d.placement.placementNodes(db), without.map((r) => ({ id: r.id, nodeId: r.nodeId })));
  await d.clusters.setSecondPorts(ports, db);
  for (const r of without) r.secondPort = ports.get(r.id) ?? null;
}
