/**
 * Every act the control plane can do to a cluster, as the planners return
 * it: healing (`planHealing`) and each operation's steps (create, update,
 * migrate, switchover, delete) plan in this one vocabulary, and the
 * control plane's applier does each kind in exactly one function
 * (`control-plane/src/reconciler/apply-actions.ts`).
 */
import type { InstanceRole, MigrationProgress, SlotRange } from '../domain';
import type { TopologySpec } from './topology.planner';

/** Settings an instance runs with. */
export type Settings = Pick<TopologySpec, 'memoryMbPerShard' | 'durability' | 'evictionPolicy' | 'fencing' | 'tlsClientAuth'>;

/** Why a healthy primary hands over: back to its preferred node, off a draining node, or off a node whose agent is down. */
export type SwitchoverReason = 'rebalance' | 'drain' | 'node-down';

/** Whose non-members a `forget` removes: healing's (every instance), or an update's removal and its rollback. */
export type ForgetScope = 'heal' | 'remove-instances' | 'rollback-remove';

export type ClusterAction =
  /** Start an instance (or keep it running) as planned, with the cluster's settings or `settings`. */
  | { kind: 'start'; shard: number; instanceId: string; settings?: Settings }
  /** Restart a stopped instance; `dataLost`: without persistence it comes back empty. */
  /** `superseded`: another member serves its slots with a newer claim; it starts without its own old claims (nodes-conf.ts) and rejoins as a replica. */
  | { kind: 'restart'; shard: number; instanceId: string; crashedAt: number | null; reason: string; dataLost: boolean; superseded: boolean }
  /** Restart a running instance on purpose (a rolling restart): stopped gracefully, started again with its data and config. */
  | { kind: 'restart-running'; shard: number; instanceId: string }
  /** Stop an instance and delete its data. */
  | { kind: 'remove'; instanceId: string }
  /** Memory, durability and eviction in place (or back after a cancel). */
  | { kind: 'configure'; instanceId: string; settings: Settings; rollback: boolean }
  /** Form the cluster from its instances and the stored slot map. */
  | { kind: 'form' }
  /** A new, empty primary meets the cluster through a member. */
  | { kind: 'meet'; instanceId: string; seedInstanceId: string }
  /** A replica (new, or back after a restart) follows its shard's primary. */
  | { kind: 'join'; shard: number; instanceId: string; primaryInstanceId: string }
  /**
   * Every running member of `keep` (null: every instance) forgets every node
   * that is no member (`forget-nodes`); `lostInstanceIds`: lost copies that
   * are then forgotten.
   */
  | { kind: 'forget'; scope: ForgetScope; keep: string[] | null; lostInstanceIds: string[] }
  /** A replica takes over from its crashed primary (FORCE, or TAKEOVER when FORCE does not take). */
  | { kind: 'promote'; shard: number; instanceId: string; fromInstanceId: string; mode: 'force' | 'takeover'; crashedAt: number | null; behind?: true }
  /** A healthy primary hands over to an in-sync replica, data-safe: for a reason of healing's. */
  | { kind: 'switchover'; shard: number; instanceId: string; fromInstanceId: string; reason: SwitchoverReason }
  /** A healthy primary hands over to this replica, data-safe: the user asked for it. */
  | { kind: 'switchover-to'; shard: number; instanceId: string }
  /** Close slots left importing/migrating. */
  | { kind: 'repair-slots'; slots: number[] }
  /** Rebuild a copy that was on a down node on another node. */
  | { kind: 'replace'; shard: number; instanceId: string }
  /** Draining: place a new replica before the copy on the draining node goes. */
  | { kind: 'add-replica'; shard: number; forInstanceId: string }
  /**
   * Remove a copy the shard does not need: `drain`, the new replica is in sync and the copy is on a draining node;
   * `surplus`, the shard has every copy its spec asks for without it (a copy on a down node, or one too many after
   * its replica count was lowered while a node was away).
   */
  | { kind: 'retire'; shard: number; instanceId: string; reason: 'drain' | 'surplus' }
  /** Record the role an instance reports (`replaces`: a promotion's old primary, whose failover it records). */
  | { kind: 'record-role'; instanceId: string; shard: number; role: InstanceRole; engineId: string; configEpoch: number; previousRole: InstanceRole; replaces?: string }
  /** Record the Redis node ids the instances report. */
  | { kind: 'remember-ids'; instanceIds: string[] }
  /** Drop the instance rows (stopped and forgotten). */
  | { kind: 'drop-rows'; instanceIds: string[] }
  /** Store the slot map (and, rolling back, the spec before the change). */
  | { kind: 'record-topology'; slots: SlotRange[][]; spec?: TopologySpec }
  /** Store the migration's progress (as the operation shows it). */
  | { kind: 'record-progress'; stats: MigrationProgress }
  /** Bring a running instance's database users to the desired set (`digest`: which set; `generation`: of which change). */
  | { kind: 'sync-users'; instanceId: string; generation: number; digest: string }
  /** Hand a running TLS instance a fresh certificate from its cluster's CA, served without a restart (`expiresAt`: the expiry of the one it replaces, ms epoch). */
  | { kind: 'renew-certificate'; instanceId: string; expiresAt: number }
  /** Have a running TLS instance load the cluster's client trust file as desired now (`digest`: which file), without a restart. */
  | { kind: 'sync-trust'; instanceId: string; digest: string }
  /** A restore into another layout: move the keys of the backup's shard `backupShard` (its file) into the new cluster, in load round `round`. */
  | { kind: 'restore-keys'; backupShard: number; round: number }
  /** Hand a (resumable) migration run to `runnerInstanceId`: every slot to its target primary; `primaries` all get the final SETSLOT NODE. */
  | { kind: 'migrate'; rollback: boolean; runnerInstanceId: string; targets: { instanceId: string; slots: SlotRange[]; shardEngineIds: string[] }[]; primaries: string[] };

export type ClusterActionKind = ClusterAction['kind'];

/** The acts healing plans. */
export type HealAction = Extract<ClusterAction, {
  kind: 'record-role' | 'promote' | 'restart' | 'switchover' | 'repair-slots' | 'start' | 'join' | 'replace' | 'add-replica' | 'retire' | 'forget';
}>;

/** The acts operations' steps plan. */
export type OperationAction = Extract<ClusterAction, {
  kind: 'start' | 'form' | 'remember-ids' | 'remove' | 'restart-running' | 'switchover-to' | 'configure' | 'meet' | 'join' | 'forget' | 'drop-rows' | 'record-topology' | 'record-progress' | 'migrate' | 'restore-keys';
}>;
