import type { Redis } from 'ioredis';
import type { ObservedClusterView, OpenSlot } from '../../domain';
import { connectAdmin, type AdminTarget } from './admin-connection';
import { countSlots, parseClusterNodes, parseInfo, parseOpenSlots } from './cluster-reply.parser';

export interface ObserveInstanceOptions extends AdminTarget {
  /** Connect and command timeout; default 1000 ms. */
  timeoutMs?: number;
}

/**
 * Reads how one instance sees the cluster over a short-lived connection.
 * Agents keep one connection per instance and call `observeWith` instead.
 */
export async function observeInstance(opts: ObserveInstanceOptions): Promise<ObservedClusterView | null> {
  let client;
  try {
    client = await connectAdmin(opts, opts.timeoutMs ?? 1000);
  } catch {
    return null;
  }
  try {
    return await observeWith(client);
  } finally {
    client.disconnect();
  }
}

/**
 * Reads how one instance sees the cluster: its id, role, cluster state, the
 * slots it owns or has open and, for a replica, its primary, replication
 * link and offset. Null when the instance does not answer like a cluster node.
 */
export async function observeWith(client: Redis): Promise<ObservedClusterView | null> {
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
    return { ...toView(myId, clusterInfoText, nodesText, replicationText), sampledAt: Date.now() };
  } catch {
    return null;
  }
}

/** Pure: the four replies -> the observed view. */
export function toView(myId: string, clusterInfoText: string, nodesText: string, replicationText: string): ObservedClusterView {
  const clusterInfo = parseInfo(clusterInfoText);
  const nodes = parseClusterNodes(nodesText);
  const myself = nodes.find((n) => n.myself);
  const replication = parseInfo(replicationText);
  const role = myself?.role === 'replica' || replication.role === 'slave' ? 'replica' : 'primary';
  const openSlots: OpenSlot[] = myself ? parseOpenSlots(nodesText, myself.id) : [];
  const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));
  return {
    myId,
    role,
    state: clusterInfo.cluster_state === 'ok' ? 'ok' : 'fail',
    knownNodes: Number(clusterInfo.cluster_known_nodes ?? 0),
    slotsAssigned: Number(clusterInfo.cluster_slots_assigned ?? 0),
    primaryId: role === 'replica' ? (myself?.primaryId ?? null) : null,
    primaryLinkUp: role === 'replica' ? replication.master_link_status === 'up' : null,
    slotsOwned: role === 'primary' ? (myself ? countSlots(myself.slots) : 0) : 0,
    openSlots,
    replOffset: role === 'replica' ? num(replication.slave_repl_offset) : num(replication.master_repl_offset),
    linkDownSinceSec: role === 'replica' && replication.master_link_status !== 'up' ? num(replication.master_link_down_since_seconds) : null,
    syncInProgress: role === 'replica' && replication.master_sync_in_progress === '1',
    // During a full sync: bytes received, and the total when known (-1 with a diskless sync).
    syncReadBytes: role === 'replica' && replication.master_sync_in_progress === '1' ? num(replication.master_sync_read_bytes) : null,
    syncTotalBytes: role === 'replica' && replication.master_sync_in_progress === '1' && Number(replication.master_sync_total_bytes) > 0 ? num(replication.master_sync_total_bytes) : null,
    configEpoch: myself?.configEpoch ?? 0,
    unreachablePeers: nodes.filter((n) => !n.myself && (n.flags.includes('fail?') || n.flags.includes('fail'))).map((n) => n.id),
  };
}
