/**
 * Steps of an update-cluster operation, from what it is to reach:
 * configure in place → start new instances → join them → migrate slots →
 * remove instances → finish. A cancel switches to rollback steps (settings
 * back, slots back to where they were, added instances removed, spec
 * restored). The engine's update and migrate planners decide each step
 * from observed state and the update's tasks; the applier does what they
 * say. A control-plane restart just runs the list again.
 */
import {
  movedSlots, planConfigure, planMigrateStep, planFinish, planJoinInstances, planRemoveInstances, planStartInstances, rollbackStepNames, updateStepNames,
  type RollbackStepName, type TopologyStepName, type UpdateInput, type UpdateStepPlan,
} from '@strata/engine';
import type { Step, StepResult } from './step-runner';
import { inTx, timingsOf, type ClusterContext } from './cluster-context';
import { taskFor } from './applier';
import { downNodes } from './heal';
import type { TaskRow } from '../stores/task.store';
import { applyOperationActions, opInstances, taskView } from './apply-actions';
import { taskKey, type TaskId } from './dedupe-keys';
import { UPDATE_STEP_TITLES, type UpdatePlanRecord } from './update-plan';

const WEIGHTS: Record<string, number> = {
  configure: 0.1, 'start-instances': 0.15, 'join-instances': 0.15, 'migrate-slots': 0.5, 'remove-instances': 0.08, finish: 0.02,
  'rollback-configure': 0.1, 'rollback-migrate': 0.6, 'rollback-remove': 0.28, 'rollback-finish': 0.02,
};
export const planOf = (ctx: ClusterContext): UpdatePlanRecord => ctx.operation!.plan as UpdatePlanRecord;

/** What the update planner sees now. */
function updateInput(ctx: ClusterContext): UpdateInput {
  const p = planOf(ctx);
  return {
    from: p.from, to: p.to, originalSlots: p.originalSlots, targetSlots: p.targetSlots, added: p.added, removed: p.removed,
    instances: opInstances(ctx), task: (id) => taskView(ctx, id), now: Date.now(), forgetWaitMs: timingsOf(ctx.deps).forgetWaitMs,
    migrated: migratedBy(ctx, { kind: 'migrate', rollback: !!ctx.operation!.cancelRequested }),
  };
}

/** The end state a complete migration run read (each primary's view after its last slot closed). */
function migratedBy(ctx: ClusterContext, id: TaskId): UpdateInput['migrated'] {
  const t = taskFor(ctx, id);
  const r = t?.state === 'succeeded' && t.result?.kind === 'migrate-slots' ? t.result : null;
  return r?.complete && r.final ? { at: t!.updatedAt.getTime(), final: r.final } : null;
}

/** A step the engine's update planner decides; the applier does what it says. */
const planned = (plan: (input: UpdateInput) => UpdateStepPlan): Step<ClusterContext>['run'] => async (ctx) => {
  const p = plan(updateInput(ctx));
  return (await applyOperationActions(ctx, p.actions)) ?? p.verdict;
};

/**
 * Moves slots until every shard's primary owns its target ranges; the
 * engine's migrate planner decides from the agents' reports and the runs'
 * results, progress is counted here against the whole plan.
 */
function migrate(name: 'migrate-slots' | 'rollback-migrate'): Step<ClusterContext>['run'] {
  return async (ctx): Promise<StepResult> => {
    const p = planOf(ctx);
    const id: TaskId = { kind: 'migrate', rollback: name === 'rollback-migrate' };
    const op = ctx.operation!;
    const latest = await takenBackFromDownNode(ctx, taskFor(ctx, id));
    const result = latest?.result?.kind === 'migrate-slots' ? latest.result : null;
    const raw = latest?.progressStats ?? null;
    // A run resumed after a pause counts only what was left: progress is shown against the whole plan.
    const planned = name === 'migrate-slots' ? movedSlots(p.originalSlots, p.targetSlots) : 0;
    let stats = raw && planned > raw.slotsTotal ? { ...raw, slotsTotal: planned, slotsDone: planned - (raw.slotsTotal - raw.slotsDone) } : raw;
    if (stats && latest && planned > (raw?.slotsTotal ?? 0)) {
      // ... and keys and bytes count what the earlier runs moved too, so they never go back on resume.
      const before = await ctx.deps.tasks.movedBefore(op.id, taskKey(id), latest.id);
      stats = { ...stats, keysMoved: stats.keysMoved + before.keys, bytesMoved: stats.bytesMoved + before.bytes };
    }
    const t = timingsOf(ctx.deps);
    const plan = planMigrateStep({
      rollback: name === 'rollback-migrate', target: name === 'migrate-slots' ? p.targetSlots : p.originalSlots, added: p.added, instances: opInstances(ctx),
      met: (instanceId) => taskFor(ctx, { kind: 'meet', instanceId })?.state === 'succeeded',
      latest: latest ? { state: latest.state, updatedAt: latest.updatedAt.getTime(), error: latest.error, result } : null,
      failures: latest?.state === 'failed' ? await ctx.deps.tasks.countFailures(ctx.cluster.id, ctx.operationId, taskKey(id)) : 0,
      stats, shown: op.migration ?? null, paused: !!op.paused, startedAt: Date.parse(op.createdAt), now: Date.now(),
      headlessWaitMs: t.headlessWaitMs, migrateRetryBaseMs: t.migrateRetryBaseMs, migrateReportWaitMs: t.migrateReportWaitMs,
    });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  };
}

/**
 * A migration run whose node went down (its host died, or it is cut off) is taken back: failed, naming the node, so the
 * next run starts from shard 0's primary as the engines report it now (on a live node: Redis fails a dead primary
 * over). Counts as one of the migration's attempts. Its agent, if it still runs, stops at its next safe point (its
 * heartbeat is refused), so two runs never move slots at once for long.
 */
async function takenBackFromDownNode(ctx: ClusterContext, t: TaskRow | undefined): Promise<TaskRow | undefined> {
  const down = downNodes(ctx);
  const row = await inTx(ctx, (db) => ctx.deps.tasks.takeBackFromDownNode(t, (id) => down.find((n) => n.id === id) ?? null,
    (node) => `node ${node.name} (${node.address}) went down while it ran the migration; the move goes on from a live node`, db));
  if (row && row !== t) ctx.tasks.set(row.dedupeKey, row);
  return row;
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
