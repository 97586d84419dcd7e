/**
 * The bridge between the pure planners (engine) and the applier: each
 * planned action is done by the applier's one function for its kind; the
 * planners' view of the instances and tasks is built here.
 */
import type { ClusterSpec } from '@strata/api';
import type { ClusterAction, HealAction, OperationAction, OpInstance, TaskView } from '@strata/engine';
import { address, inTx, type ClusterContext } from './cluster-context';
import type { TaskId } from './dedupe-keys';
import { memberObservation } from '../observed/instance-health';
import { downNodes } from './heal';
import {
  addReplica, formCluster, forgetNonMembers, joinReplica, meetPrimary, migrateSlots, promoteReplica, reconfigureInstance, recordRole, recordTopology,
  rememberEngineIds, removeInstance, repairSlots, restartRunning, replaceLost, restartInstance, restoreKeys, retire, startInstance, switchOver, syncUsers, renewCertificate, syncTrust, taskFor, type Submitted,
} from './applier';

const byId = (ctx: ClusterContext, id: string) => ctx.instances.find((i) => i.id === id)!;

/**
 * What applying one action says: nothing (handed out, running, settling or
 * done), a failure the operation ends with (a task that kept failing), or
 * in words why it cannot be done now (e.g. no room for a replacement), for
 * the cluster's conditions.
 */
export type Applied = Submitted | { kind: 'blocked'; reason: string };

/** Applies one action, whoever planned it, with the one function for its kind. */
export async function applyAction(ctx: ClusterContext, a: ClusterAction): Promise<Applied> {
  const blocked = (reason: string | void): Applied => (reason ? { kind: 'blocked', reason } : null);
  switch (a.kind) {
    case 'start': return startInstance(ctx, byId(ctx, a.instanceId), a.settings);
    case 'restart': return restartInstance(ctx, a);
    case 'remove': return removeInstance(ctx, byId(ctx, a.instanceId));
    case 'restart-running': return restartRunning(ctx, byId(ctx, a.instanceId));
    case 'configure': return reconfigureInstance(ctx, byId(ctx, a.instanceId), a.settings, a.rollback);
    case 'form': return formCluster(ctx);
    case 'meet': return meetPrimary(ctx, byId(ctx, a.instanceId), byId(ctx, a.seedInstanceId));
    case 'join': return joinReplica(ctx, byId(ctx, a.instanceId), byId(ctx, a.primaryInstanceId));
    case 'forget': return forgetNonMembers(ctx, a.keep ? a.keep.map((id) => byId(ctx, id)) : ctx.instances, a.scope, a.lostInstanceIds);
    case 'promote': return promoteReplica(ctx, a);
    case 'switchover': return switchOver(ctx, byId(ctx, a.instanceId), { kind: 'switchover', shard: a.shard, fromInstanceId: a.fromInstanceId });
    case 'switchover-to': return switchOver(ctx, byId(ctx, a.instanceId), { kind: 'switchover-to', instanceId: a.instanceId });
    case 'repair-slots': return repairSlots(ctx, a.slots);
    case 'replace': return blocked(await replaceLost(ctx, a));
    case 'add-replica': return blocked(await addReplica(ctx, a));
    case 'retire': await retire(ctx, a); return null;
    case 'record-role': return blocked(await recordRole(ctx, a));
    case 'remember-ids': await rememberEngineIds(ctx, a.instanceIds.map((id) => byId(ctx, id))); return null;
    case 'drop-rows': await inTx(ctx, async (db) => { for (const id of a.instanceIds) await ctx.deps.clusters.deleteInstance(id, db); }); return null;
    case 'record-topology': await recordTopology(ctx, a.slots, a.spec as ClusterSpec | undefined); return null;
    case 'record-progress': await inTx(ctx, (db) => ctx.deps.operations.setMigration(ctx.operationId!, a.stats, db)); return null;
    case 'migrate': await migrateSlots(ctx, a); return null;
    case 'sync-users': return syncUsers(ctx, byId(ctx, a.instanceId), a.generation, a.digest);
    case 'renew-certificate': return renewCertificate(ctx, byId(ctx, a.instanceId), a.expiresAt);
    case 'sync-trust': return syncTrust(ctx, byId(ctx, a.instanceId), a.digest);
    case 'restore-keys': return restoreKeys(ctx, a.backupShard, a.round);
  }
}

/**
 * Applies an operation step's actions in order. Returns the first failure
 * the operation ends with, else null.
 */
export async function applyOperationActions(ctx: ClusterContext, actions: OperationAction[]): Promise<Submitted> {
  for (const a of actions) {
    const applied = await applyAction(ctx, a);
    if (applied?.kind === 'failed') return applied;
  }
  return null;
}

/**
 * Applies healing's actions in the planner's order. Returns what could not
 * be done now, in words, for the cluster's conditions (a failed healing
 * task is retried with backoff, never failing anything).
 */
export async function applyHealActions(ctx: ClusterContext, actions: HealAction[]): Promise<string[]> {
  const blocked: string[] = [];
  for (const a of actions) {
    const applied = await applyAction(ctx, a);
    if (applied?.kind === 'blocked') blocked.push(applied.reason);
  }
  return blocked;
}

/** The context's instances as the operation planner sees them. */
export function opInstances(ctx: ClusterContext): OpInstance[] {
  const down = new Set(downNodes(ctx).map((n) => n.id));
  return ctx.instances.map((i) => ({
    id: i.id, shard: i.shardIndex, role: i.role, engineId: i.engineId ?? null, label: `${address(ctx, i).host}:${i.port}`,
    nodeName: ctx.nodes.get(i.nodeId)?.name ?? i.nodeId, obs: memberObservation(ctx.observe(i.id)), nodeReportedAt: ctx.nodeReportedAt(i.nodeId),
    crashed: ((o) => !!o && (o.held || o.crashedAt !== null))(ctx.observe(i.id)),
    nodeDown: down.has(i.nodeId),
  }));
}

/** What one task of this identity did last, as the planners see it. */
export function taskView(ctx: ClusterContext, id: TaskId): TaskView | null {
  const t = taskFor(ctx, id);
  return t ? { state: t.state, updatedAt: t.updatedAt.getTime() } : null;
}
