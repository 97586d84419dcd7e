/**
 * Healing: holds a provisioned cluster to its spec whether or not an
 * operation runs. Asks the pure planner in `engine` what to do next and
 * applies it: records the live roles, hands promotions, restarts,
 * switchovers and slot repairs to agents as tasks, and records events.
 */
import type { EventInstanceRef, FailoverCause, TaskResult } from '@strata/api';
import { planHealing, type HealAction, type HealInstance, type HealPlan } from '@strata/engine';
import { address, forgetNodesRequest, type ClusterContext } from './cluster-context';
import type { TaskRequest } from '@strata/api';
import type { InstanceRow } from '../stores/cluster.store';
import type { TaskRow } from '../stores/task.store';
import type { Db } from '../db/tx';
import { faultPoint } from './fault-point';
import { eventKey, taskKey, type TaskId } from './dedupe-keys';
import { taskFor } from './task-step';

/** Observed state of the context's instances, as the planner sees it. */
export function healInstances(ctx: ClusterContext, now = Date.now()): HealInstance[] {
  const down = new Set(downNodes(ctx, now).map((n) => n.id));
  return ctx.instances.map((i) => {
    const o = ctx.observe(i.id);
    return {
      id: i.id, shard: i.shardIndex, nodeId: i.nodeId, role: i.role, preferredRole: i.preferredRole, engineId: i.engineId ?? null, configEpoch: i.configEpoch ?? null,
      obs: o ? { process: o.state, held: o.held, crashedAt: o.crashedAt ? Date.parse(o.crashedAt) : null, view: o.cluster } : null,
      nodeSilent: ctx.deps.observed.isSilent(i.nodeId),
      nodeDown: down.has(i.nodeId),
      nodeDraining: ctx.nodes.get(i.nodeId)?.draining ?? false,
    };
  });
}

export function planFor(ctx: ClusterContext, healthySince: number | null, now = Date.now()): HealPlan {
  const s = ctx.deps.healing;
  return planHealing({
    now, shards: ctx.cluster.spec.shards, durability: ctx.cluster.spec.durability, instances: healInstances(ctx),
    fastFailover: s.fastFailover, failoverGraceMs: s.failoverGraceMs, rebalanceAfterMs: s.rebalanceAfterMs, healthySince,
    lost: ctx.lost.map((l) => ({ id: l.id, shard: l.shardIndex, engineId: l.engineId ?? null, forgotten: !!l.forgottenAt })),
    replicasPerShard: ctx.cluster.spec.replicasPerShard,
  });
}

const promoteId = (a: Extract<HealAction, { kind: 'promote' }>): TaskId => ({ kind: 'promote', shard: a.shard, fromInstanceId: a.fromInstanceId, crashedAt: a.crashedAt });

/** Steps of an update during which no instance is stopped on purpose: a process that exits there crashed. */
const PROMOTE_DURING_STEPS = new Set(['start-instances', 'join-instances', 'migrate-slots', 'rollback-migrate', 'configure', 'rollback-configure']);

/**
 * During a change, healing's promotions still run (only those: the
 * operation's steps own everything else). A shard whose primary's process
 * died gets its in-sync replica promoted, as when no operation runs. Redis
 * does that itself for a primary serving slots, but never for one with
 * none: a new shard's primary that dies before it claims its first slots,
 * though it may already hold the keys migrated to it in that round (MIGRATE
 * deleted them from the source). Left alone, its agent restarts it empty
 * when the hold ends, its replica resyncs from it, and those keys are gone.
 * Promoted, the replica keeps them, and the migration's next attempt makes
 * it the importer of the open slot and finishes the move.
 *
 * Only for the primaries the change added (the new shards'): a source
 * primary serves slots, and Redis fails it over itself as when no change
 * runs. `ctx` is the heal context (tasks without an operation); instances
 * the change removes are left alone. Returns the promotions it asked for.
 */
export async function promoteDuringOperation(
  ctx: ClusterContext, op: { steps: { name: string; state: string }[] }, added: ReadonlySet<string>, exclude: ReadonlySet<string>,
): Promise<HealAction[]> {
  const running = op.steps.find((s) => s.state === 'running');
  if (!running || !PROMOTE_DURING_STEPS.has(running.name)) return [];
  const plan = planFor(ctx, null);
  const promotions = plan.actions.filter((a): a is Extract<HealAction, { kind: 'promote' }> => a.kind === 'promote' && added.has(a.fromInstanceId) && !exclude.has(a.instanceId) && !exclude.has(a.fromInstanceId));
  if (!promotions.length) return [];
  const asked = promotions.filter((a) => !taskFor(ctx, promoteId(a)));
  await applyHealPlan(ctx, { actions: promotions, waiting: [] });
  return asked;
}

/**
 * Applies a plan. Every action is idempotent: tasks and events carry dedupe
 * keys. Returns what could not be done now, in words (e.g. no room for a
 * replacement), for the cluster's conditions.
 */
export async function applyHealPlan(ctx: ClusterContext, plan: HealPlan): Promise<string[]> {
  const blocked: string[] = [];
  for (const a of inApplyOrder(plan.actions)) {
    const why = await apply(ctx, a);
    if (why) blocked.push(why);
  }
  return blocked;
}

/**
 * A lost instance that every member forgot and that its node no longer runs
 * (removed as an orphan, or the node reports without it) is gone for good:
 * its row, and with it its port, is released.
 */
export async function releaseCleanedUpLost(ctx: ClusterContext): Promise<void> {
  for (const l of ctx.lost) {
    if (!l.forgottenAt || ctx.deps.observed.isSilent(l.nodeId)) continue;
    if (ctx.deps.observed.nodeInstances(l.nodeId).some((i) => i.instanceId === l.id)) continue;
    await ctx.deps.clusters.deleteInstance(l.id);
  }
}

/**
 * Nodes holding this cluster's instances that this control plane has not
 * heard from for the node-down timeout (counted from its own start, so a
 * control-plane outage never makes every node look down at once).
 */
export function downNodes(ctx: ClusterContext, _now = Date.now()) {
  const ids = new Set(ctx.instances.map((i) => i.nodeId));
  return [...ctx.nodes.values()].filter((n) => ids.has(n.id) && ctx.deps.observed.silentForMs(n.id) > ctx.deps.nodeDownAfterMs);
}

/** A node went down: tell the user, once per outage, on every cluster it held instances of. */
export async function recordDownNodes(ctx: ClusterContext): Promise<void> {
  for (const n of downNodes(ctx)) {
    const silentSince = (n.lastHeartbeatAt ?? n.createdAt).toISOString();
    const instances = ctx.instances.filter((i) => i.nodeId === n.id).map((i) => ref(ctx, i));
    // Event dedupe keys are unique across clusters: the key names the cluster, or only the first cluster on the node gets one.
    await ctx.deps.events.record(ctx.cluster, {
      type: 'node-down', node: { id: n.id, name: n.name, address: n.address }, silentSince, instances,
      message: `Node ${n.name} (${n.address}) has not reported since ${silentSince}: it is down. This cluster had ${instances.length} instance(s) on it: ${instances.map((i) => i.address).join(', ')}.`,
    }, eventKey({ type: 'node-down', clusterId: ctx.cluster.id, nodeId: n.id, silentSince }));
  }
}

/** One transaction when the deps provide one; otherwise statement by statement on the pool. */
const inTx = <T>(ctx: ClusterContext, fn: (db: Db | undefined) => Promise<T>): Promise<T> =>
  ctx.deps.transaction ? ctx.deps.transaction(fn) : fn(undefined);

/**
 * Record-role actions in an order that keeps a failover's old primary
 * findable: promotions (replica -> primary) before demotions, everything
 * else after.
 */
function inApplyOrder(actions: HealAction[]): HealAction[] {
  const rank = (a: HealAction) => (a.kind !== 'record-role' ? 2 : a.role === 'primary' ? 0 : 1);
  return [...actions].sort((x, y) => rank(x) - rank(y));
}

/**
 * Hands a healing task to an agent unless one is open, one just succeeded
 * (its effect shows in the next reports, within a second or two), or it
 * keeps failing: then it is retried with backoff (0.5 s doubling to 30 s),
 * never in a tight loop. `alongside` (the events that tell the user about
 * it) commits in the same transaction as the task: a control plane killed
 * in between loses neither, since the next pass finds no task either and
 * plans the action again.
 */
const SETTLE_MS = 2000;
/** A forget that succeeded is not asked again this soon (what it did shows in the next reports). */
const FORGET_SETTLE_MS = 5000;
async function healTask(
  ctx: ClusterContext, t: { nodeId: string; id: TaskId; request: TaskRequest }, alongside?: (db: Db | undefined) => Promise<void>,
): Promise<void> {
  const latest = taskFor(ctx, t.id);
  if (latest?.state === 'succeeded' && Date.now() - latest.updatedAt.getTime() < SETTLE_MS) return;
  if (latest?.state === 'failed') {
    const failures = await ctx.deps.tasks.failuresSinceSuccess(ctx.cluster.id, null, taskKey(t.id));
    const backoff = Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1));
    if (Date.now() - latest.updatedAt.getTime() < backoff) return;
  }
  const inserted = await inTx(ctx, async (db) => {
    const ins = await ctx.deps.tasks.enqueue({ nodeId: t.nodeId, clusterId: ctx.cluster.id, operationId: ctx.operationId, request: t.request, dedupeKey: taskKey(t.id) }, db);
    await alongside?.(db);
    return ins;
  });
  // After the commit: the agent's long-poll must find the task.
  if (inserted) ctx.deps.notifyNode(t.nodeId);
  // e.g. heal-promote-enqueued, heal-restart-enqueued, heal-switchover-enqueued (crash tests).
  if (inserted) faultPoint(`heal-${t.id.kind}-enqueued`);
}

const ref = (ctx: ClusterContext, i: InstanceRow): EventInstanceRef => {
  const a = address(ctx, i);
  return { instanceId: i.id, address: `${a.host}:${a.port}`, nodeName: ctx.nodes.get(i.nodeId)?.name ?? i.nodeId };
};
const byId = (ctx: ClusterContext, id: string) => ctx.instances.find((i) => i.id === id)!;
const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

const instanceSpec = (ctx: ClusterContext, inst: InstanceRow) => ({
  instanceId: inst.id, clusterId: ctx.cluster.id, port: inst.port, memoryMb: inst.memoryMb,
  durability: ctx.cluster.spec.durability, evictionPolicy: ctx.cluster.spec.evictionPolicy,
});

async function apply(ctx: ClusterContext, a: HealAction): Promise<string | void> {
  const { clusters, events } = ctx.deps;
  const cluster = ctx.cluster;
  switch (a.kind) {
    case 'record-role': {
      const inst = byId(ctx, a.instanceId);
      const otherPrimary = ctx.instances.find((i) => i.shardIndex === a.shard && i.id !== inst.id && i.role === 'primary');
      // A demotion waits until the shard's new primary is recorded (promotions
      // are applied first, and its report may come a pass later): until then
      // the old primary stays the recorded one, so the promotion finds it as
      // the failover's old primary, also after a control-plane restart.
      if (a.previousRole === 'primary' && a.role === 'replica' && !otherPrimary) return;
      const failoverFrom = a.role === 'primary' && a.previousRole === 'replica' ? otherPrimary : undefined;
      const seen = { role: a.role, engineId: a.engineId, configEpoch: a.configEpoch };
      // The new role and the failover event commit together: a crash between them would lose the event for good.
      await inTx(ctx, async (db) => {
        await clusters.recordObservedInstance(inst.id, seen, db);
        if (failoverFrom) await recordFailover(ctx, inst, failoverFrom, a.configEpoch, db);
      });
      Object.assign(inst, seen);
      return;
    }
    case 'promote': {
      const inst = byId(ctx, a.instanceId);
      // A forced failover that has not won within 700 ms becomes a takeover on the agent (failover.ts); a failed task is retried with backoff.
      await healTask(ctx, {
        nodeId: inst.nodeId, id: promoteId(a),
        request: { kind: 'failover', clusterId: cluster.id, instanceId: inst.id, port: inst.port, mode: a.mode },
      });
      return;
    }
    case 'restart': {
      const inst = byId(ctx, a.instanceId);
      const instance = ref(ctx, inst);
      // The restart and what it means for the user commit together: once the
      // task exists the agent restarts the engine within milliseconds, and a
      // later pass has no restart left to plan (nor a data-lost to record).
      await healTask(ctx, {
        nodeId: inst.nodeId, id: { kind: 'restart', instanceId: inst.id, crashedAt: a.crashedAt },
        request: { kind: 'ensure-instance', instance: instanceSpec(ctx, inst) },
      }, async (db) => {
        await events.record(cluster, {
          type: 'instance-restarted', shard: a.shard, instance, reason: a.reason,
          message: `Shard ${a.shard}: restarting ${instance.address} on ${instance.nodeName}: it ${a.reason}.`,
        }, eventKey({ type: 'instance-restarted', instanceId: inst.id, crashedAt: a.crashedAt }), db);
        if (a.dataLost) {
          await events.record(cluster, {
            type: 'data-lost', shard: a.shard, instance,
            reason: `durability none and ${a.reason}`,
            message: `Shard ${a.shard} lost its data: its primary stopped, ${a.reason}, and durability "none" keeps nothing on disk. It restarts empty. Use aof-everysec or replicas to survive this.`,
          }, eventKey({ type: 'data-lost', instanceId: inst.id, crashedAt: a.crashedAt }), db);
        }
      });
      return;
    }
    case 'switchover': {
      const inst = byId(ctx, a.instanceId);
      await healTask(ctx, {
        nodeId: inst.nodeId, id: { kind: 'switchover', shard: a.shard, fromInstanceId: a.fromInstanceId },
        request: { kind: 'failover', clusterId: cluster.id, instanceId: inst.id, port: inst.port, mode: 'switchover' },
      });
      return;
    }
    case 'start': {
      const inst = byId(ctx, a.instanceId);
      await healTask(ctx, { nodeId: inst.nodeId, id: { kind: 'start', instanceId: inst.id }, request: { kind: 'ensure-instance', instance: instanceSpec(ctx, inst) } });
      return;
    }
    case 'join': {
      const inst = byId(ctx, a.instanceId);
      const primary = byId(ctx, a.primaryInstanceId);
      await healTask(ctx, {
        nodeId: inst.nodeId, id: { kind: 'join', instanceId: inst.id, primaryInstanceId: primary.id },
        request: { kind: 'join-replica', clusterId: cluster.id, instanceId: inst.id, port: inst.port, primary: { instanceId: primary.id, ...address(ctx, primary) } },
      });
      return;
    }
    case 'replace': {
      const lost = byId(ctx, a.instanceId);
      if (!ctx.deps.replaceInstance) return 'replacing instances is not available';
      const r = await ctx.deps.replaceInstance(cluster, lost);
      if (!r.ok) return `shard ${a.shard}: cannot rebuild the copy that was on a down node: ${r.reason}; waiting for room or for the node to return`;
      const from = ref(ctx, lost);
      const to = ref(ctx, r.replacement);
      await events.record(cluster, {
        type: 'replica-rebuilt', shard: a.shard, lost: from, replacement: to,
        message: `Shard ${a.shard}: the copy on ${from.nodeName} (down) is rebuilt as a new replica at ${to.address} on ${to.nodeName}.`,
      }, eventKey({ type: 'replica-rebuilt', lostInstanceId: lost.id }));
      return;
    }
    case 'add-replica': {
      const draining = byId(ctx, a.forInstanceId);
      if (!ctx.deps.addReplica) return 'placing replicas is not available';
      const r = await ctx.deps.addReplica(cluster, draining, 1 + cluster.spec.replicasPerShard);
      if (!r.ok) return `shard ${a.shard}: draining is blocked: no node can take a new replica: ${r.reason}; waiting for room (or undrain)`;
      return;
    }
    case 'retire': {
      const old = byId(ctx, a.instanceId);
      const elsewhere = ctx.instances.filter((i) => i.shardIndex === a.shard && i.id !== old.id && !ctx.nodes.get(i.nodeId)?.draining);
      const replacement = elsewhere.filter((i) => i.role === 'replica').sort((x, y) => y.replicaIndex - x.replicaIndex)[0];
      if (old.preferredRole === 'primary') {
        const serving = elsewhere.find((i) => i.role === 'primary');
        if (serving) await clusters.setPreferredRole(serving.id, 'primary');
      }
      await clusters.markLost(old.id);
      if (replacement) {
        const from = ref(ctx, old);
        const to = ref(ctx, replacement);
        await events.record(cluster, {
          type: 'replica-rebuilt', shard: a.shard, lost: from, replacement: to,
          message: `Shard ${a.shard}: the copy on ${from.nodeName} (draining) moved to ${to.address} on ${to.nodeName}, which is in sync; the old copy is removed.`,
        }, eventKey({ type: 'replica-rebuilt', lostInstanceId: old.id }));
      }
      return;
    }
    case 'forget': {
      // Every instance is a member; the ones running forget every node with neither a member's id nor address.
      const members = ctx.instances;
      const running = members.filter((i) => ctx.observe(i.id)?.state === 'running');
      if (!running.length || members.some((i) => address(ctx, i).host === 'unknown')) return;
      const id: TaskId = { kind: 'forget', scope: 'heal' };
      const latest = taskFor(ctx, id);
      if (latest?.state === 'succeeded') {
        // A run forgot every copy that was lost before it began; the 60 s FORGET ban keeps gossip from bringing them back meanwhile.
        const forgotten = ctx.lost.filter((l) => !l.forgottenAt && a.lostInstanceIds.includes(l.id) && l.lostAt.getTime() <= latest.createdAt.getTime());
        if (forgotten.length) await clusters.markForgotten(forgotten.map((l) => l.id));
        if (Date.now() - latest.updatedAt.getTime() < FORGET_SETTLE_MS) return;
      }
      await healTask(ctx, { nodeId: running[0]!.nodeId, id, request: forgetNodesRequest(ctx, members) });
      return;
    }
    case 'repair-slots': {
      const primaries = ctx.instances.filter((i) => i.role === 'primary');
      const seed = primaries.find((i) => ctx.observe(i.id)?.state === 'running');
      if (!seed) return;
      await healTask(ctx, {
        nodeId: seed.nodeId, id: { kind: 'repair-slots', slots: a.slots },
        request: { kind: 'repair-slots', clusterId: cluster.id, primaries: primaries.map((i) => ({ instanceId: i.id, ...address(ctx, i) })) },
      });
      return;
    }
  }
}

/**
 * A replica was seen serving its shard's slots: record the failover with
 * what Strata measured. The cause comes from what was known of the old
 * primary; the times from its agent (exit seen) and the promotion task.
 */
async function recordFailover(ctx: ClusterContext, promoted: InstanceRow, old: InstanceRow, configEpoch: number, db: Db | undefined): Promise<void> {
  const now = Date.now();
  const oldObs = ctx.observe(old.id);
  const tasks = [...ctx.tasks.values()].filter((t) => t.kind === 'failover' && (t.payload as { instanceId?: string }).instanceId === promoted.id);
  const task = tasks.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())[0];
  const mode = (task?.payload as { mode?: string } | undefined)?.mode;
  const result = task?.result as Extract<TaskResult, { kind: 'failover' }> | null | undefined;
  // Agents report every second: a node quiet for longer lost its primary with it, even before its
  // observations stop counting (STRATA_NODE_OFFLINE_AFTER_MS) and Redis failed over faster than that.
  // (Not heard from since this control plane started says nothing: it may just have started.)
  const oldNodeLastReport = ctx.nodeReportedAt(old.nodeId);
  const oldNodeQuiet = oldNodeLastReport !== null && now - oldNodeLastReport > NODE_QUIET_MS;
  const cause: FailoverCause = mode === 'switchover' && task && now - task.createdAt.getTime() < 60_000 ? 'switchover'
    : !oldObs || oldNodeQuiet ? 'node-lost'
      : oldObs.state === 'crashed' || oldObs.state === 'stopped' ? 'process-crash' : 'engine';
  // node-lost: from the old primary's node's last report (its silence began then; the primary died no earlier).
  const detectedAt = cause === 'switchover' ? task!.createdAt.getTime()
    : cause === 'node-lost' ? ctx.nodeReportedAt(old.nodeId)
      : oldObs?.crashedAt ? Date.parse(oldObs.crashedAt) : null;
  const promotedAt = result?.promotedAt && task && now - task.createdAt.getTime() < 60_000 ? Date.parse(result.promotedAt) : now;
  const clusterOkAt = Math.max(promotedAt, now);
  const from = ref(ctx, old);
  const to = ref(ctx, promoted);
  const window = detectedAt !== null ? Math.max(0, clusterOkAt - detectedAt) : null;
  await ctx.deps.events.record(ctx.cluster, {
    type: 'failover', shard: promoted.shardIndex, cause, oldPrimary: from, newPrimary: to,
    detectedAt: iso(detectedAt), promotedAt: iso(promotedAt)!, clusterOkAt: iso(clusterOkAt)!, writeUnavailableMs: window,
    message: `Shard ${promoted.shardIndex}: ${to.address} (${to.nodeName}) took over from ${from.address} (${from.nodeName}) after ${causeText[cause]}${window !== null ? `; about ${window} ms without writes` : ''}.`,
    // A takeover always bumps the new primary's config epoch: one event per takeover, however many passes see it.
  }, eventKey({ type: 'failover', promotedInstanceId: promoted.id, configEpoch }), db);
  if (cause === 'switchover' && promoted.preferredRole === 'primary') {
    await ctx.deps.events.record(ctx.cluster, {
      type: 'primaries-rebalanced', moves: [{ shard: promoted.shardIndex, from, to }],
      message: `Shard ${promoted.shardIndex}: primary moved back to ${to.address} on ${to.nodeName}, spreading primaries over nodes again.`,
    }, eventKey({ type: 'primaries-rebalanced', promotedInstanceId: promoted.id, configEpoch }), db);
  }
}

const NODE_QUIET_MS = 2500;

const causeText: Record<FailoverCause, string> = {
  'process-crash': 'its primary process exited',
  'node-lost': 'its node stopped reporting',
  switchover: 'a planned switchover',
  engine: 'Redis failed over on its own',
};

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
    const instance = ref(ctx, i);
    const reason = `its process exited at ${o.crashedAt} and its agent restarts it (a replica resyncs from its primary)`;
    await ctx.deps.events.record(ctx.cluster, {
      type: 'instance-restarted', shard: i.shardIndex, instance, reason,
      message: `Shard ${i.shardIndex}: ${instance.address} on ${instance.nodeName} restarted by its agent: ${reason}.`,
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
