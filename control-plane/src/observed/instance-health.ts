/**
 * Which instances of a cluster are healthy members, as the topology route,
 * the cluster's status and the operation steps all see it: the one rule of
 * `isHealthyMember` (engine) applied to stored rows and what their nodes
 * report.
 */
import type { ObservedInstance } from '@strata/api';
import { healthyIds, isInSyncReplica, primaryNodeId, type MemberObservation } from '@strata/engine';

/** The stored facts about an instance that health depends on. */
export interface MemberRow {
  id: string;
  shardIndex: number;
  role: 'primary' | 'replica';
  nodeId: string;
  engineId?: string | null;
}

export interface HealthView {
  /** What the instance's own node last reported (null: nothing trustworthy). */
  observe(instanceId: string): ObservedInstance | null;
}

export const memberObservation = (o: ObservedInstance | null | undefined): MemberObservation | null =>
  (o ? { process: o.state, view: o.cluster } : null);

/** The Redis node id of the shard's recorded primary (see `primaryNodeId`). */
export function shardPrimaryNodeId(instances: readonly MemberRow[], shard: number, view: HealthView): string | null {
  const p = instances.find((i) => i.shardIndex === shard && i.role === 'primary');
  return p ? primaryNodeId({ engineId: p.engineId, obs: memberObservation(view.observe(p.id)) }) : null;
}

/** Is `replica` in sync with `primary` right now (see `isInSyncReplica`)? */
export function inSyncWith(replica: MemberRow, primary: MemberRow, view: HealthView): boolean {
  return isInSyncReplica(memberObservation(view.observe(replica.id)), primaryNodeId({ engineId: primary.engineId, obs: memberObservation(view.observe(primary.id)) }));
}

/**
 * The ids of the healthy members among `instances` (engine's `healthyIds`).
 * `forgetting`: copies replaced after a node loss that members may still
 * know until they forgot them.
 */
export function healthyMembers(instances: readonly MemberRow[], forgetting: number, view: HealthView): Set<string> {
  return healthyIds(instances.map((i) => ({ id: i.id, shard: i.shardIndex, role: i.role, engineId: i.engineId ?? null, obs: memberObservation(view.observe(i.id)) })), forgetting);
}
