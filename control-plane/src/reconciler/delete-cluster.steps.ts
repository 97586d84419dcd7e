/**
 * Steps of a delete-cluster operation: stop-instances -> remove-records. The
 * engine's operation planner says what is left to remove; the applier does it.
 */
import { planDeleteStep, type DeleteStep, type TaskView } from '@strata/engine';
import { DELETE_STEPS } from './steps';
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { applyOperationActions, opInstances, taskView } from './apply-actions';

const step = (name: DeleteStep): Step<ClusterContext> => ({
  def: DELETE_STEPS.find((s) => s.name === name)!,
  run: async (ctx) => {
    const removal = new Map<string, TaskView>();
    for (const i of ctx.instances) {
      const t = taskView(ctx, { kind: 'remove', instanceId: i.id });
      if (t) removal.set(i.id, t);
    }
    const plan = planDeleteStep(name, { instances: opInstances(ctx), removal });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  },
});

export const deleteClusterSteps: Step<ClusterContext>[] = DELETE_STEPS.map((s) => step(s.name));
