/**
 * Second ports of an in-place TLS switch: while a cluster serves both protocols, each of its instances serves the
 * other one on a port of its own, taken from placement's ports on its node (counted in the node's used ports from
 * then on, so no instance, bus port or spare gets it) and released when one protocol is left. The switch holds them
 * for the instances it starts with; an instance added meanwhile (a reshard, a rebuilt or drained copy) gets one here.
 * A cluster with a stable endpoint also holds a second endpoint port meanwhile (the lowest free one from its
 * endpoint's port up), which forwards to the second ports: clients of the second protocol get a URI that outlives
 * any node too. Both are released with the layout that leaves one protocol (ClusterStore.setTlsLayout). When that
 * layout serves the second protocol on the own ports, the endpoint lingers SECOND_ENDPOINT_LINGER_MS, forwarding to
 * them: a cluster client that knew only the second ports reconnects through it instead of losing every address.
 * Call under the placement lock, after the rows are inserted.
 */
import { planSecondPorts, servesBoth, type TlsLayout } from '@strata/engine';
import type { Db } from '../db/tx';
import type { ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { ClusterService } from './cluster.service';

/** How long a second endpoint whose protocol moved to the own ports stays open after the switch (forwarding to them). */
export const SECOND_ENDPOINT_LINGER_MS = 120_000;

export async function holdSecondPorts(
  d: { clusters: ClusterStore; placement: Pick<ClusterService, 'placementNodes'> }, clusterId: string, rows: InstanceRow[], db: Db, layout?: TlsLayout,
): Promise<void> {
  const cluster = await d.clusters.get(clusterId, undefined, db);
  const serves = layout ?? cluster?.tlsLayout;
  if (!serves || !servesBoth(serves)) return;
  if (cluster && cluster.endpointPort !== null && !cluster.endpointSecondPort) {
    await d.clusters.setEndpointSecondPort(clusterId, await d.clusters.freeEndpointPort(cluster.endpointPort, db), db);
  }
  const without = rows.filter((r) => !r.secondPort);
  if (!without.length) return;
  const ports = planSecondPorts(await d.placement.placementNodes(db), without.map((r) => ({ id: r.id, nodeId: r.nodeId })));
  await d.clusters.setSecondPorts(ports, db);
  for (const r of without) r.secondPort = ports.get(r.id) ?? null;
}
