/**
 * A rolling restart (restart-cluster): the engine's restart planner says
 * which instance restarts next, or which primary hands over first; the
 * applier does it. Roles a switchover changed are recorded by healing,
 * which runs beside the roll for that and for promotions (reconciler.ts).
 * A restart asked for the maintenance window waits (pending, healing as
 * usual) until the window opens (`restartStartsAt`).
 */
import { planRestartStep } from '@strata/engine';
import { describeWindow, windowState, type MaintenanceWindow } from '@strata/api';
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

/**
 * Whether a restart that has not started must wait: null when it may start
 * now (asked for now, or the window is open, or the cluster no longer has a
 * window), else when the next window opens and why it waits, in words. A
 * roll that started is never held back (it finishes past the window's end).
 */
export function restartStartsAt(plan: RestartPlanRecord, window: MaintenanceWindow | null, now: number): { startsAt: string; detail: string } | null {
  if (plan.when !== 'maintenance_window' || !window) return null;
  const s = windowState(window, now);
  if (s.open) return null;
  return { startsAt: s.opensAt, detail: `waiting for the maintenance window (${describeWindow(window)}): starts at ${s.opensAt.replace('.000Z', 'Z')}` };
}
