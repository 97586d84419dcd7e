/** What an update-cluster or switchover operation stores as its plan. */
import type { ClusterSpec, SlotRange, TopologyPlan } from '@strata/api';

export interface UpdatePlanRecord {
  kind: 'update';
  from: ClusterSpec;
  to: ClusterSpec;
  /** Slot map before the change (a cancel moves slots back to it). */
  originalSlots: SlotRange[][];
  /** Slot map at the end, by shard index. */
  targetSlots: SlotRange[][];
  /** Instance rows created for the change. */
  added: string[];
  /** Instance rows removed once their slots moved away. */
  removed: string[];
  vertical: boolean;
  /** The plan as the API showed it. */
  public: TopologyPlan;
}

export interface SwitchoverPlanRecord {
  kind: 'switchover';
  shard: number;
  targetInstanceId: string;
  fromInstanceId: string;
}

export const UPDATE_STEP_TITLES: Record<string, string> = {
  'rollback-configure': 'Cancelled: put memory, durability and eviction back',
  'rollback-migrate': 'Cancelled: move slots back to where they were',
  'rollback-remove': 'Cancelled: remove the instances this change added',
  'rollback-finish': 'Cancelled: restore the previous spec',
};

export const SWITCHOVER_STEPS = [
  { name: 'switchover', title: 'Promote the replica once it has caught up (CLUSTER FAILOVER, no acknowledged write lost)', weight: 1 },
] as const;
