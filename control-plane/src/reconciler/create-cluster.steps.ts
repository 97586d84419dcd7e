/**
 * Steps of a create-cluster operation: plan -> start-instances ->
 * form-cluster -> verify; a restore into another layout than its backup's
 * has load-data before verify (the operation records which list it runs).
 * Each asks the engine's operation planner what to do now and has the
 * applier do it.
 */
import { parseRestoreProgressDetail } from '@strata/api';
import { MAX_LOAD_ROUNDS, planCreateStep, type CreateStep, type RestoreFileView } from '@strata/engine';
import { CREATE_STEPS, CREATE_STEPS_LOADING_KEYS } from './steps';
import type { Step } from './step-runner';
import { timingsOf, type ClusterContext } from './cluster-context';
import { applyOperationActions, opInstances, taskView } from './apply-actions';
import { taskFor } from './applier';

/**
 * The load round: engines of the new cluster restarted or failed over so far (each such event). Keys moved before one
 * may be gone with it (a primary without persistence restarts empty; a failover drops what its replica had not
 * received), so each new round moves every file again.
 */
async function loadRound(ctx: ClusterContext): Promise<number> {
  // Past MAX_LOAD_ROUNDS the step fails: counting further changes nothing.
  const { items } = await ctx.deps.events.list(ctx.cluster.id, ctx.cluster.organizationId, { limit: MAX_LOAD_ROUNDS + 1, types: ['instance-restarted', 'failover'] });
  return items.length;
}

/** Each backup file's restore-keys task and progress in this round (load-data only). */
async function restoreFiles(ctx: ClusterContext): Promise<RestoreFileView[]> {
  const files = (await ctx.deps.restoreFiles?.(ctx.cluster.id)) ?? [];
  const round = files.length ? await loadRound(ctx) : 0;
  return files.map((f, backupShard) => {
    const id = { kind: 'restore-keys' as const, backupShard, round };
    const t = taskFor(ctx, id);
    const earlierRunning = Array.from({ length: round }, (_, r) => taskFor(ctx, { kind: 'restore-keys', backupShard, round: r }))
      .some((e) => e?.state === 'pending' || e?.state === 'leased');
    const progress = parseRestoreProgressDetail(t?.progressDetail);
    const result = t?.result?.kind === 'restore-keys' ? t.result : null;
    return {
      backupShard, round, task: taskView(ctx, id), earlierRunning,
      done: result ? result.keysMoved + result.keysExpired : progress?.done ?? 0,
      total: result?.keysTotal ?? progress?.total ?? (t ? f.keys : null),
    };
  });
}

const step = (def: { name: CreateStep; title: string; weight: number }): Step<ClusterContext> => ({
  def,
  run: async (ctx) => {
    const plan = planCreateStep(def.name, {
      instances: opInstances(ctx), form: taskView(ctx, { kind: 'form', clusterId: ctx.cluster.id }), endpointServed: ctx.endpointServed,
      now: Date.now(), reformAfterMs: timingsOf(ctx.deps).reformAfterMs, forgetting: ctx.lost.filter((l) => !l.forgottenAt).length,
      restore: def.name === 'load-data' ? await restoreFiles(ctx) : undefined,
    });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  },
});

const plainSteps: Step<ClusterContext>[] = CREATE_STEPS.map(step);
const loadingSteps: Step<ClusterContext>[] = CREATE_STEPS_LOADING_KEYS.map(step);

/** The steps the operation was created with: with load-data for a restore into another layout. */
export const createClusterSteps = (ctx: ClusterContext): Step<ClusterContext>[] =>
  (ctx.operation?.steps.some((s) => s.name === 'load-data') ? loadingSteps : plainSteps);
