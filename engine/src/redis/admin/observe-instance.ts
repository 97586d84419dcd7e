import type { ObservedClusterView } from '@strata/api';
import { connectAdmin, type AdminTarget } from './admin-connection';
import { parseClusterNodes, parseInfo } from './cluster-reply.parser';

export interface ObserveInstanceOptions extends AdminTarget {
  /** Connect and command timeout; default 1000 ms. */
  timeoutMs?: number;
}

/**
 * Reads how one instance sees the cluster: its id, role, cluster state and,
 * for a replica, its primary and replication link. Null when the instance is
 * unreachable, refuses the login or does not answer like a cluster node.
 */
export async function observeInstance(opts: ObserveInstanceOptions): Promise<ObservedClusterView | null> {
  let client;
  try {
    client = await connectAdmin(opts, opts.timeoutMs ?? 1000);
  } catch {
    return null;
  }
  try {
    const replies = await client
      .pipeline()
      .call('CLUSTER', 'MYID')
      .call('CLUSTER', 'INFO')
      .call('CLUSTER', 'NODES')
      .call('INFO', 'replication')
      .exec();
    if (!replies) return null;
    for (const [err] of replies) if (err) return null;
    const [myId, clusterInfoText, nodesText, replicationText] = replies.map(([, value]) => String(value)) as [string, string, string, string];
    const clusterInfo = parseInfo(clusterInfoText);
    const myself = parseClusterNodes(nodesText).find((n) => n.myself);
    const replication = parseInfo(replicationText);
    const role = myself?.role === 'replica' || replication.role === 'slave' ? 'replica' : 'primary';
    return {
      myId,
      role,
      state: clusterInfo.cluster_state === 'ok' ? 'ok' : 'fail',
      knownNodes: Number(clusterInfo.cluster_known_nodes ?? 0),
      slotsAssigned: Number(clusterInfo.cluster_slots_assigned ?? 0),
      primaryId: role === 'replica' ? (myself?.primaryId ?? null) : null,
      primaryLinkUp: role === 'replica' ? replication.master_link_status === 'up' : null,
    };
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}
