/**
 * What "in-sync replica" and "healthy member" mean, decided once for every
 * reader: the reconciler (phase, conditions, healing, operation steps), the
 * topology route, switchover and the tests. Pure functions over what agents
 * observe; no I/O.
 */
import type { InstanceRole, ObservedClusterView, ObservedInstanceState } from '../domain';

/** What an agent last said about one instance (null: nothing trustworthy, e.g. its node is silent). */
export interface MemberObservation {
  process: ObservedInstanceState;
  /** Its cluster view; null while it does not run or has not been asked yet. */
  view: ObservedClusterView | null;
}

const runningView = (o: MemberObservation | null | undefined): ObservedClusterView | null =>
  (o?.process === 'running' && o.view ? o.view : null);

/**
 * The Redis node id a replica of this primary follows: what the primary
 * says about itself while it runs and is observed, else the id last recorded
 * for it (its node may be silent, or it crashed). Null when neither is known.
 */
export function primaryNodeId(primary: { engineId?: string | null; obs: MemberObservation | null } | undefined): string | null {
  if (!primary) return null;
  return runningView(primary.obs)?.myId ?? primary.engineId ?? null;
}

/**
 * Does this replica follow exactly that Redis node? The node id is required:
 * "link up" alone only says a replica follows *some* node (an old primary
 * back as a replica of another copy, a node a failed change left behind),
 * and nobody can vouch for a copy of data whose source is unknown. Ids are
 * recorded as soon as an instance is seen running, so a missing id only
 * happens before a cluster was ever observed.
 */
export function followsNode(view: ObservedClusterView | null | undefined, nodeId: string | null | undefined): boolean {
  return !!view && view.role === 'replica' && !!nodeId && view.primaryId === nodeId;
}

/**
 * A replica that holds its primary's data now: it runs, follows exactly that
 * primary (by Redis node id, required: see `followsNode`), its link is up and
 * no full sync is going on.
 */
export function isInSyncReplica(replica: MemberObservation | null | undefined, primaryId: string | null | undefined): boolean {
  const v = runningView(replica);
  return !!v && followsNode(v, primaryId) && v.primaryLinkUp === true && !v.syncInProgress;
}

/**
 * One member of the cluster as planned is healthy when it runs, sees
 * cluster_state ok, has its recorded role, knows no node beyond the
 * cluster's instances and the copies still being forgotten
 * (`maxKnownNodes`), and, as a replica, is in sync with its shard's primary.
 * Knowing fewer nodes is not held against it: a member that just joined
 * becomes known by gossip within a second or two, and until it serves slots
 * or is an in-sync replica that member itself is not healthy.
 */
export function isHealthyMember(
  m: { role: InstanceRole; obs: MemberObservation | null },
  expect: { primaryNodeId: string | null; maxKnownNodes: number },
): boolean {
  const v = runningView(m.obs);
  if (!v || v.state !== 'ok' || v.role !== m.role || v.knownNodes > expect.maxKnownNodes) return false;
  return m.role === 'primary' || isInSyncReplica(m.obs, expect.primaryNodeId);
}
