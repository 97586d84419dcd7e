import type { Node } from '@strata/api';
import type { NodeRow, NodeStore } from '../stores/node.store';

/** How long a node may stay silent before it counts as offline, and as down. */
export interface LivenessTimings {
  /** Silent this long: offline (its instances' observations are stale). */
  nodeOfflineAfterMs: number;
  /** Silent this long: down, whatever its peers say (its copies are rebuilt elsewhere). */
  nodeDownAfterMs: number;
  /**
   * Silent this long while the cluster peers of every engine it ran cannot
   * reach them either (`fail?` / `fail` in their CLUSTER NODES): down. A
   * host that died or was cut off is declared down this early; an agent
   * that stopped while its engines keep serving, or a control plane cut
   * from a serving host, waits for `nodeDownAfterMs`. Above that, it is
   * that.
   */
  nodeDownConfirmedAfterMs: number;
}

/**
 * The one rule for a node's liveness: online, offline (silent a few seconds,
 * or not reported yet), down (silent past the node-down timeout, or past the
 * shorter confirmed timeout while its engines' peers cannot reach them).
 * `silentMs` null: not heard from yet. `unreachableByPeers` is asked only
 * for a node silent past the confirmed timeout.
 */
export function nodeStatus(silentMs: number | null, unreachableByPeers: () => boolean, t: LivenessTimings): Node['status'] {
  if (silentMs === null) return 'offline';
  if (silentMs >= t.nodeDownAfterMs) return 'down';
  if (silentMs >= Math.min(t.nodeDownConfirmedAfterMs, t.nodeDownAfterMs) && unreachableByPeers()) return 'down';
  return silentMs < t.nodeOfflineAfterMs ? 'online' : 'offline';
}

/**
 * A node's liveness as the API shows it and placement counts it: silence since its last heartbeat, this process's
 * or, before it heard one, the stored one (less what a restart may have missed, NodeStore.silentForMs). A node that
 * died while the control plane was away is shown down at once, and placement never picks it.
 */
export function storedNodeStatus(
  n: NodeRow, d: { nodes: Pick<NodeStore, 'silentForMs'>; observed: { unreachableByPeers(nodeId: string): boolean } }, t: LivenessTimings, now = Date.now(),
): Node['status'] {
  return nodeStatus(d.nodes.silentForMs(n, now), () => d.observed.unreachableByPeers(n.id), t);
}

/**
 * A node's liveness by what this control plane heard (silence counted from its own start, so a control-plane outage
 * never makes every node look down at once): what healing and backups act on.
 */
export function heardNodeStatus(o: { silentForMs(nodeId: string): number | null; unreachableByPeers(nodeId: string): boolean }, nodeId: string, t: LivenessTimings): Node['status'] {
  return nodeStatus(o.silentForMs(nodeId), () => o.unreachableByPeers(nodeId), t);
}
