/**
 * A rolling restart (restart-cluster): the engine's restart planner says
 * which instance restarts next, or which primary hands over first; the
 * applier does it. Roles a switchover changed are recorded by healing,
 * which runs beside the roll for that and for promotions (reconciler.ts).
 */
import { planRestartStep } from '@strata/engine';
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { applyOperationActions, opInstances, taskView } from './apply-actions';
import { RESTART_STEPS, type RestartPlanRecord } from './update-plan';

const restart: Step<ClusterContext> = {
  def: RESTART_STEPS[0],
  run: async (ctx) => {
    const plan = planRestartStep({ instances: opInstances(ctx), order: (ctx.operation!.plan as RestartPlanRecord).order, task: (ref) => taskView(ctx, ref) });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  },
};

export const restartSteps: Step<ClusterContext>[] = [restart];
