/**
 * Healing: holds a provisioned cluster to its spec whether or not an
 * operation runs. Asks the pure planner in `engine` what to do next and has
 * the applier do it; records the events observations alone reveal (a node
 * down, a replica its agent restarted, slots a repair closed).
 */
import type { TaskResult } from '@strata/api';
import { planHealing, type HealInput, type HealInstance, type HealPlan } from '@strata/engine';
import { inTx, type ClusterContext } from './cluster-context';
import type { TaskRow } from '../stores/task.store';
import { eventKey } from './dedupe-keys';
import { taskFor } from './applier';
import { applyHealActions } from './apply-actions';
import { eventRef } from './failover-event';
import { shardLabel } from '@strata/api';
import { heardNodeStatus } from '../observed/node-liveness';

/** Observed state of the context's instances, as the planner sees it. */
export function healInstances(ctx: ClusterContext, now = Date.now()): HealInstance[] {
  const down = new Set(downNodes(ctx, now).map((n) => n.id));
  return ctx.instances.map((i) => {
    const o = ctx.observe(i.id);
    return {
      id: i.id, shard: i.shardIndex, nodeId: i.nodeId, role: i.role, preferredRole: i.preferredRole, engineId: i.engineId ?? null, configEpoch: i.configEpoch ?? null,
      obs: o ? { process: o.state, held: o.held, crashedAt: o.crashedAt ? Date.parse(o.crashedAt) : null, view: o.cluster } : null,
      // A node declared down before its reports went stale (node-liveness.ts) is silent all the same.
      nodeSilent: ctx.deps.observed.isSilent(i.nodeId) || down.has(i.nodeId),
      nodeDown: down.has(i.nodeId),
      nodeDraining: ctx.nodes.get(i.nodeId)?.draining ?? false,
    };
  });
}

/** `during`: an operation runs; only its own new primaries are healed (see planHealing). */
export function planFor(ctx: ClusterContext, healthySince: number | null, during?: HealInput['during'], now = Date.now()): HealPlan {
  const s = ctx.deps.healing;
  return planHealing({
    during,
    now, shards: ctx.cluster.spec.shards, durability: ctx.cluster.spec.durability, fencing: ctx.cluster.spec.fencing, instances: healInstances(ctx),
    fastFailover: s.fastFailover, failoverGraceMs: s.failoverGraceMs, rebalanceAfterMs: s.rebalanceAfterMs, healthySince,
    lost: ctx.lost.map((l) => ({ id: l.id, shard: l.shardIndex, engineId: l.engineId ?? null, forgotten: !!l.forgottenAt })),
    replicasPerShard: ctx.cluster.spec.replicasPerShard,
  });
}

/**
 * Applies a plan, each action by the applier's function for its kind, in the
 * planner's order. Returns what could not be done now, in words (e.g. no
 * room for a replacement), for the cluster's conditions.
 */
export const applyHealPlan = (ctx: ClusterContext, plan: HealPlan): Promise<string[]> => applyHealActions(ctx, plan.actions);

/**
 * A lost instance that every member forgot and that its node no longer runs
 * (removed as an orphan, or the node reports without it) is gone for good:
 * its row, and with it its port, is released.
 */
export async function releaseCleanedUpLost(ctx: ClusterContext): Promise<void> {
  for (const l of ctx.lost) {
    if (!l.forgottenAt || ctx.deps.observed.isSilent(l.nodeId)) continue;
    if (ctx.deps.observed.nodeInstances(l.nodeId).some((i) => i.instanceId === l.id)) continue;
    await inTx(ctx, (db) => ctx.deps.clusters.deleteInstance(l.id, db));
  }
}

/**
 * Nodes holding this cluster's instances that are down (node-liveness.ts) by
 * what this control plane heard: silence counted from its own start, so a
 * control-plane outage never makes every node look down at once.
 */
export function downNodes(ctx: ClusterContext, _now = Date.now()) {
  const ids = new Set(ctx.instances.map((i) => i.nodeId));
  return [...ctx.nodes.values()].filter((n) => ids.has(n.id) && liveness(ctx, n.id) === 'down');
}

/**
 * Nodes of this cluster that stopped reporting while their engines' peers
 * already cannot reach them, not down yet: the pass after the confirmed
 * timeout declares them down, so the worker keeps passing until then.
 */
export function suspectNodes(ctx: ClusterContext): string[] {
  const ids = new Set(ctx.instances.map((i) => i.nodeId));
  const o = ctx.deps.observed;
  return [...ids].filter((id) => o.silentForMs(id) > SUSPECT_AFTER_MS && o.unreachableByPeers(id) && liveness(ctx, id) !== 'down');
}

/** Agents report about once a second: a node silent longer than that has missed a report. */
const SUSPECT_AFTER_MS = 1000;

function liveness(ctx: ClusterContext, nodeId: string) {
  const o = ctx.deps.observed;
  const { nodeDownAfterMs } = ctx.deps;
  return heardNodeStatus(o, nodeId, { nodeOfflineAfterMs: o.staleAfterMs, nodeDownAfterMs, nodeDownConfirmedAfterMs: ctx.deps.nodeDownConfirmedAfterMs ?? nodeDownAfterMs });
}

/** A node went down: tell the user, once per outage, on every cluster it held instances of. */
export async function recordDownNodes(ctx: ClusterContext): Promise<void> {
  for (const n of downNodes(ctx)) {
    const silentSince = (n.lastHeartbeatAt ?? n.createdAt).toISOString();
    const instances = ctx.instances.filter((i) => i.nodeId === n.id).map((i) => eventRef(ctx, i));
    // Event dedupe keys are unique across clusters: the key names the cluster, or only the first cluster on the node gets one.
    await ctx.deps.events.record(ctx.cluster, {
      type: 'node-down', node: { id: n.id, name: n.name, address: n.address }, silentSince, instances,
      message: `Node ${n.name} (${n.address}) has not reported since ${silentSince}${ctx.deps.observed.unreachableByPeers(n.id) ? ', and its engines\' cluster peers cannot reach them' : ''}: it is down. This cluster had ${instances.length} instance(s) on it: ${instances.map((i) => i.address).join(', ')}.`,
    }, eventKey({ type: 'node-down', clusterId: ctx.cluster.id, nodeId: n.id, silentSince }));
  }
}

/**
 * An engine its agent restarts on its own (a crashed replica: agents restart
 * those with backoff, no order needed): tell the user, once per crash. Seen
 * while the report still carries the crash (crashed, or starting again);
 * restarts the control plane ordered are recorded with their task.
 */
export async function recordAgentRestarts(ctx: ClusterContext): Promise<void> {
  for (const i of ctx.instances) {
    const o = ctx.observe(i.id);
    if (!o || o.held || !o.crashedAt || (o.state !== 'crashed' && o.state !== 'starting')) continue;
    const crashedAt = Date.parse(o.crashedAt);
    if (taskFor(ctx, { kind: 'restart', instanceId: i.id, crashedAt })) continue;
    const instance = eventRef(ctx, i);
    const reason = `its process exited at ${o.crashedAt} and its agent restarts it (a replica resyncs from its primary)`;
    await ctx.deps.events.record(ctx.cluster, {
      type: 'instance-restarted', shard: i.shardIndex, instance, reason,
      message: `${shardLabel(i.shardIndex)}: ${instance.address} on ${instance.nodeName} restarted by its agent: ${reason}.`,
    }, eventKey({ type: 'agent-restart', instanceId: i.id, crashedAt }));
  }
}

/**
 * A repair-slots task that finished: record which slots it closed (once per
 * task). Called on every pass, not only with a plan: the report that shows
 * the slots closed usually comes with the task's completion, and then the
 * plan is empty.
 */
export async function recordFinishedRepairs(ctx: ClusterContext): Promise<void> {
  const done = [...ctx.tasks.values()].filter((t: TaskRow) => t.kind === 'repair-slots' && t.state === 'succeeded' && t.result?.kind === 'repair-slots');
  for (const t of done) {
    const slots = (t.result as Extract<TaskResult, { kind: 'repair-slots' }>).repaired;
    if (!slots.length) continue;
    await ctx.deps.events.record(ctx.cluster, {
      type: 'slots-repaired', slots,
      message: `Closed ${slots.length} slot(s) left importing/migrating (${slots.map((s) => s.slot).join(', ')}); ${slots.reduce((n, s) => n + s.movedKeys, 0)} key(s) moved back to their owner.`,
    }, eventKey({ type: 'slots-repaired', taskId: t.id }));
  }
}
