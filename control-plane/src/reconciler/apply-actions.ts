/**
 * The bridge between the pure planners (engine) and the applier: each
 * planned action is done by the applier's one function for its kind; the
 * planners' view of the instances and tasks is built here.
 */
import type { ClusterSpec } from '@strata/api';
import type { HealAction, OperationAction, OpInstance, TaskView } from '@strata/engine';
import { address, type ClusterContext } from './cluster-context';
import type { TaskId } from './dedupe-keys';
import { memberObservation } from '../observed/instance-health';
import {
  addReplica, formCluster, forgetNonMembers, joinReplica, meetPrimary, migrateSlots, promoteReplica, reconfigureInstance, recordRole, recordTopology,
  rememberEngineIds, removeInstance, repairSlots, replaceLost, restartInstance, retire, startInstance, switchOver, taskFor, type Submitted,
} from './applier';

const byId = (ctx: ClusterContext, id: string) => ctx.instances.find((i) => i.id === id)!;

/**
 * Applies one healing action with the function for its kind. Returns what
 * could not be done now, in words (e.g. no room for a replacement), for the
 * cluster's conditions.
 */
export async function applyHealAction(ctx: ClusterContext, a: HealAction): Promise<string | void> {
  switch (a.kind) {
    case 'record-role': return recordRole(ctx, a);
    case 'promote': await promoteReplica(ctx, a); return;
    case 'restart': await restartInstance(ctx, a); return;
    case 'switchover': await switchOver(ctx, byId(ctx, a.instanceId), { kind: 'switchover', shard: a.shard, fromInstanceId: a.fromInstanceId }); return;
    case 'start': await startInstance(ctx, byId(ctx, a.instanceId)); return;
    case 'join': await joinReplica(ctx, byId(ctx, a.instanceId), byId(ctx, a.primaryInstanceId)); return;
    case 'replace': return replaceLost(ctx, a);
    case 'add-replica': return addReplica(ctx, a);
    case 'retire': return retire(ctx, a);
    case 'forget': await forgetNonMembers(ctx, ctx.instances, 'heal', a.lostInstanceIds); return;
    case 'repair-slots': await repairSlots(ctx, a.slots); return;
  }
}

/**
 * Applies an operation step's actions (engine's operation planners), each by
 * the function for its kind, in order. Returns the first failure the
 * operation ends with (a task that kept failing), else null.
 */
export async function applyOperationActions(ctx: ClusterContext, actions: OperationAction[]): Promise<Submitted> {
  for (const a of actions) {
    let failed: Submitted = null;
    switch (a.kind) {
      case 'start': failed = await startInstance(ctx, byId(ctx, a.instanceId), a.settings); break;
      case 'form': failed = await formCluster(ctx); break;
      case 'remember-ids': await rememberEngineIds(ctx, a.instanceIds.map((id) => byId(ctx, id))); break;
      case 'remove': failed = await removeInstance(ctx, byId(ctx, a.instanceId)); break;
      case 'switchover': failed = await switchOver(ctx, byId(ctx, a.instanceId), { kind: 'switchover-to', instanceId: a.instanceId }); break;
      case 'configure': failed = await reconfigureInstance(ctx, byId(ctx, a.instanceId), a.settings, a.rollback); break;
      case 'meet': failed = await meetPrimary(ctx, byId(ctx, a.instanceId), byId(ctx, a.seedInstanceId)); break;
      case 'join': failed = await joinReplica(ctx, byId(ctx, a.instanceId), byId(ctx, a.primaryInstanceId)); break;
      case 'forget': failed = await forgetNonMembers(ctx, a.keep.map((id) => byId(ctx, id)), a.scope); break;
      case 'drop-rows': for (const id of a.instanceIds) await ctx.deps.clusters.deleteInstance(id); break;
      case 'record-topology': await recordTopology(ctx, a.slots, a.spec as ClusterSpec | undefined); break;
      case 'record-progress': await ctx.deps.operations.setMigration(ctx.operationId!, a.stats); break;
      case 'migrate': await migrateSlots(ctx, a); break;
    }
    if (failed) return failed;
  }
  return null;
}

/** The context's instances as the operation planner sees them. */
export function opInstances(ctx: ClusterContext): OpInstance[] {
  return ctx.instances.map((i) => ({
    id: i.id, shard: i.shardIndex, role: i.role, engineId: i.engineId ?? null, label: `${address(ctx, i).host}:${i.port}`,
    nodeName: ctx.nodes.get(i.nodeId)?.name ?? i.nodeId, obs: memberObservation(ctx.observe(i.id)), nodeReportedAt: ctx.nodeReportedAt(i.nodeId),
    crashed: ((o) => !!o && (o.held || o.crashedAt !== null))(ctx.observe(i.id)),
  }));
}

/** What one task of this identity did last, as the planners see it. */
export function taskView(ctx: ClusterContext, id: TaskId): TaskView | null {
  const t = taskFor(ctx, id);
  return t ? { state: t.state, updatedAt: t.updatedAt.getTime() } : null;
}
