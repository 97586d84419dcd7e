/**
 * Steps of an update-cluster operation, from what it is to reach:
 * configure in place → start new instances → join them → migrate slots →
 * remove instances → finish. A cancel switches to rollback steps (settings
 * back, slots back to where they were, added instances removed, spec
 * restored). The engine's update planner decides each step from observed
 * state and the update's tasks (the migration's decisions are still here),
 * so a control-plane restart just runs the list again.
 */
import type { SlotRange, TaskResult } from '@strata/api';
import {
  expandRanges, movedSlots, planConfigure, planFinish, planJoinInstances, planRemoveInstances, planStartInstances, rollbackStepNames, updateStepNames,
  type RollbackStepName, type TopologyStepName, type UpdateInput, type UpdateStepPlan,
} from '@strata/engine';
import type { Step, StepResult } from './step-runner';
import { address, timingsOf, type ClusterContext } from './cluster-context';
import { applyUpdateActions, migrateSlots, opInstances, taskFor, taskView } from './applier';
import { taskKey, type TaskId } from './dedupe-keys';
import type { InstanceRow } from '../stores/cluster.store';
import { UPDATE_STEP_TITLES, type UpdatePlanRecord } from './update-plan';

const WEIGHTS: Record<string, number> = {
  configure: 0.1, 'start-instances': 0.15, 'join-instances': 0.15, 'migrate-slots': 0.5, 'remove-instances': 0.08, finish: 0.02,
  'rollback-configure': 0.1, 'rollback-migrate': 0.6, 'rollback-remove': 0.28, 'rollback-finish': 0.02,
};
/** Failed attempts of the migration task before the operation fails. */
const MIGRATE_ATTEMPTS = 5;

export const planOf = (ctx: ClusterContext): UpdatePlanRecord => ctx.operation!.plan as UpdatePlanRecord;

const running = (ctx: ClusterContext, i: InstanceRow) => ctx.observe(i.id)?.state === 'running';

/** What the update planner sees now. */
function updateInput(ctx: ClusterContext): UpdateInput {
  const p = planOf(ctx);
  return {
    from: p.from, to: p.to, originalSlots: p.originalSlots, targetSlots: p.targetSlots, added: p.added, removed: p.removed,
    instances: opInstances(ctx), task: (id) => taskView(ctx, id), now: Date.now(), forgetWaitMs: timingsOf(ctx.deps).forgetWaitMs,
  };
}

/** A step the engine's update planner decides; the applier does what it says. */
const planned = (plan: (input: UpdateInput) => UpdateStepPlan): Step<ClusterContext>['run'] => async (ctx) => {
  const p = plan(updateInput(ctx));
  return (await applyUpdateActions(ctx, p.actions)) ?? p.verdict;
};

const count = (r: SlotRange[]) => expandRanges(r).length;

/**
 * The instance serving as a shard's primary now: running and called primary
 * by its engine (the highest config epoch if two do, e.g. an old primary
 * back before it hears it was replaced). Redis may have failed a shard over
 * during the operation, which the stored roles learn only afterwards. With
 * no engine report yet, the stored primary if it runs.
 */
export function shardPrimary(ctx: ClusterContext, shard: number): InstanceRow | undefined {
  const rows = ctx.instances.filter((i) => i.shardIndex === shard && running(ctx, i));
  const reported = rows.filter((i) => ctx.observe(i.id)?.cluster?.role === 'primary')
    .sort((a, b) => (ctx.observe(b.id)!.cluster!.configEpoch ?? 0) - (ctx.observe(a.id)!.cluster!.configEpoch ?? 0));
  if (reported.length) return reported[0];
  return rows.find((i) => i.role === 'primary' && !ctx.observe(i.id)?.cluster);
}

/** Moves slots until every shard's primary owns its target ranges; progress from the agent's reports. */
function migrate(name: 'migrate-slots' | 'rollback-migrate'): Step<ClusterContext>['run'] {
  return async (ctx): Promise<StepResult> => {
    const p = planOf(ctx);
    const target = name === 'migrate-slots' ? p.targetSlots : p.originalSlots;
    const id: TaskId = { kind: 'migrate', rollback: name === 'rollback-migrate' };
    const op = ctx.operation!;
    const primaryOf = (shard: number) => shardPrimary(ctx, shard);
    const shards = [...new Set(ctx.instances.map((i) => i.shardIndex))].sort((a, b) => a - b);
    const headless = shards.filter((s) => !primaryOf(s));
    // A new primary is a member once it met the cluster; a new replica promoted since (its primary died) joined as a replica.
    const member = (i: InstanceRow) => !p.added.includes(i.id) || taskFor(ctx, { kind: 'meet', instanceId: i.id })?.state === 'succeeded'
      || (i.role !== 'primary' && (ctx.observe(i.id)?.cluster?.knownNodes ?? 0) > 1);
    const livePrimaries = shards.flatMap((s) => {
      const i = primaryOf(s);
      return i && member(i) ? [i] : [];
    });
    const owns = (i: InstanceRow) => ctx.observe(i.id)?.cluster?.slotsOwned ?? -1;
    // Open slots of the shards' primaries only: an old primary back with a stale nodes.conf may show marks it no
    // longer acts on (it is not migrated from or to, and heal turns it into a replica after the operation).
    const open = livePrimaries.some((i) => (ctx.observe(i.id)?.cluster?.openSlots.length ?? 0) > 0);
    const settled = !open && target.every((r, shard) => { const pr = primaryOf(shard); return !!pr && owns(pr) === count(r); })
      && livePrimaries.filter((i) => i.shardIndex >= target.length).every((i) => owns(i) === 0);
    const latest = taskFor(ctx, id);
    const result = latest?.result as Extract<TaskResult, { kind: 'migrate-slots' }> | null | undefined;
    const raw = latest?.progressStats;
    // A run resumed after a pause counts only what was left: progress is shown against the whole plan.
    const planned = name === 'migrate-slots' ? movedSlots(p.originalSlots, p.targetSlots) : 0;
    let stats = raw && planned > raw.slotsTotal ? { ...raw, slotsTotal: planned, slotsDone: planned - (raw.slotsTotal - raw.slotsDone) } : raw;
    if (stats && latest && planned > (raw?.slotsTotal ?? 0)) {
      // ... and keys and bytes count what the earlier runs moved too, so they never go back on resume.
      const before = await ctx.deps.tasks.movedBefore(op.id, taskKey(id), latest.id);
      stats = { ...stats, keysMoved: stats.keysMoved + before.keys, bytesMoved: stats.bytesMoved + before.bytes };
    }
    // Stored before the done check: the pass that sees the run finished may be the first since its last progress report.
    if (stats && latest && (latest.state === 'leased' || latest.state === 'pending' || !op.migration || op.migration.slotsDone !== stats.slotsDone)) {
      await ctx.deps.operations.setMigration(op.id, stats);
    }
    // The run's own end state (each primary read after its last slot closed) stands for the reports still on their way.
    const reportedByRun = latest?.state === 'succeeded' && !!result?.complete && !!result.final && livePrimaries.length >= target.length
      && target.every((_, shard) => !!primaryOf(shard))
      && livePrimaries.every((i) => {
        const f = result.final!.find((x) => x.instanceId === i.id);
        return !!f && f.openSlots === 0 && f.slotsOwned === (i.shardIndex < target.length ? count(target[i.shardIndex]!) : 0);
      });
    if (latest?.state === 'succeeded' && result?.complete && (settled || reportedByRun)) {
      return { kind: 'done', detail: `${result.slotsMoved} slots, ${result.keysMoved} keys moved` };
    }
    const fraction = stats && stats.slotsTotal ? stats.slotsDone / stats.slotsTotal : 0;
    const detail = stats ? `${stats.slotsDone}/${stats.slotsTotal} slots, ${stats.keysMoved} keys moved, ${stats.keysPerSec} keys/s${stats.etaSeconds !== null ? `, ETA ${stats.etaSeconds}s` : ''}` : 'starting';
    if (latest && (latest.state === 'pending' || latest.state === 'leased')) return { kind: 'wait', detail, fraction };
    if (op.paused) return { kind: 'wait', detail: `paused at ${detail}; every slot has one owner`, fraction };
    const t = timingsOf(ctx.deps);
    if (latest?.state === 'succeeded' && result?.complete && Date.now() - latest.updatedAt.getTime() < t.migrateReportWaitMs) {
      return { kind: 'wait', detail: 'waiting for every node to report the new slot map', fraction: 0.99 };
    }
    // A primary is gone and its replica not promoted yet (Redis fails a shard over after cluster-node-timeout): an
    // attempt now would only fail. Waiting costs no attempt. (A member left in cluster_state:fail by a source that
    // died mid-move is not waited for: the next attempt points its open slots at the live owner, which ends it.)
    // Bounded: a shard whose replica cannot be promoted (none in sync, no majority of primaries) must not hold the
    // operation forever. It fails, and healing (which does not run during an operation) takes over.
    if (headless.length) {
      const waitingSince = latest?.updatedAt.getTime() ?? Date.parse(op.createdAt);
      if (Date.now() - waitingSince < t.headlessWaitMs) {
        return { kind: 'wait', detail: `${detail}; waiting for shard ${headless.join(', ')} to have a primary again (failover)`, fraction };
      }
      return { kind: 'failed', code: 'shard_without_primary', message: `shard ${headless.join(', ')} has had no running primary for ${t.headlessWaitMs / 1000} s during the slot migration; the change stopped there and healing takes over (it promotes a replica or restarts the primary, and closes open slots)` };
    }
    if (latest?.state === 'failed') {
      const failures = await ctx.deps.tasks.countFailures(ctx.cluster.id, ctx.operationId, taskKey(id));
      if (failures >= MIGRATE_ATTEMPTS) return { kind: 'failed', code: 'migration_failed', message: `slot migration failed ${failures} times: ${latest.error ?? 'no error reported'}` };
      // Attempts spaced 0.5, 1, 2, 4 s: reports of a fault (a crash, the cluster going down) can arrive after the attempt that met it.
      const backoffMs = t.migrateRetryBaseMs * 2 ** (failures - 1);
      const since = Date.now() - latest.updatedAt.getTime();
      if (since < backoffMs) return { kind: 'wait', detail: `${detail}; attempt ${failures} of ${MIGRATE_ATTEMPTS} failed (${latest.error ?? 'no error reported'}), trying again in ${((backoffMs - since) / 1000).toFixed(1)} s`, fraction };
    }
    const targets = target.flatMap((slots, shard) => {
      const pr = primaryOf(shard);
      const shardEngineIds = ctx.instances.filter((i) => i.shardIndex === shard && i.id !== pr?.id && i.engineId).map((i) => i.engineId!);
      return pr ? [{ instanceId: pr.id, ...address(ctx, pr), slots, shardEngineIds }] : [];
    });
    if (targets.length !== target.length || targets.some((t) => !livePrimaries.some((l) => l.id === t.instanceId))) {
      return { kind: 'wait', detail: 'waiting for every target primary to run and be a member', fraction };
    }
    const runner = primaryOf(0)!;
    await migrateSlots(ctx, runner, name === 'rollback-migrate', { targets, primaries: livePrimaries.map((i) => ({ instanceId: i.id, ...address(ctx, i) })) });
    return { kind: 'wait', detail, fraction };
  };
}

const step = (name: string, title: string, run: Step<ClusterContext>['run']): Step<ClusterContext> => ({ def: { name, title, weight: WEIGHTS[name] ?? 0.1 }, run });

/**
 * The steps this operation runs now, from what it is to reach (engine's
 * updateStepNames), or the rollback once a cancel was asked. Titles are the
 * operation's own (as the API showed them when it started).
 */
export function updateClusterSteps(ctx: ClusterContext): Step<ClusterContext>[] {
  const p = planOf(ctx);
  const op = ctx.operation!;
  const title = (name: string) => op.steps.find((s) => s.name === name)?.title ?? UPDATE_STEP_TITLES[name] ?? name;
  const runs: Record<TopologyStepName | RollbackStepName, Step<ClusterContext>['run']> = {
    configure: planned((i) => planConfigure(i, false)), 'start-instances': planned(planStartInstances), 'join-instances': planned(planJoinInstances),
    'migrate-slots': migrate('migrate-slots'), 'remove-instances': planned((i) => planRemoveInstances(i, false)), finish: planned((i) => planFinish(i, false)),
    'rollback-configure': planned((i) => planConfigure(i, true)), 'rollback-migrate': migrate('rollback-migrate'),
    'rollback-remove': planned((i) => planRemoveInstances(i, true)), 'rollback-finish': planned((i) => planFinish(i, true)),
  };
  const names = op.cancelRequested ? rollbackStepNames(p) : updateStepNames(p);
  const steps = names.map((name) => step(name, title(name), runs[name]));
  const total = steps.reduce((s, x) => s + x.def.weight, 0) || 1;
  return steps.map((s) => ({ ...s, def: { ...s.def, weight: s.def.weight / total } }));
}

/** Steps of an update during which no instance is stopped on purpose: a process that exits there crashed. */
const PROMOTE_DURING_STEPS = new Set(['start-instances', 'join-instances', 'migrate-slots', 'rollback-migrate', 'configure', 'rollback-configure']);

/**
 * What healing may do while this update runs (the planner's `during`): promote
 * the replica of a primary the change added, in steps that stop no instance
 * on purpose. Undefined: nothing.
 */
export function healDuringUpdate(op: { steps: { name: string; state: string }[]; plan: unknown }): { added: string[]; removed: string[] } | undefined {
  const running = op.steps.find((s) => s.state === 'running');
  if (!running || !PROMOTE_DURING_STEPS.has(running.name) || !op.plan) return undefined;
  const p = op.plan as UpdatePlanRecord;
  return { added: p.added, removed: p.removed };
}

/** Cancel is possible until instances start being removed (after that the change is past its point of no return). */
export function cancellable(op: { steps: { name: string; state: string }[] }): boolean {
  return !op.steps.some((s) => (s.name === 'remove-instances' || s.name === 'finish') && s.state !== 'pending');
}
