/**
 * Steps of a create-cluster operation: plan -> start-instances ->
 * form-cluster -> verify. Each asks the engine's operation planner what to do
 * now and has the applier do it.
 */
import { planCreateStep, type CreateStep } from '@strata/engine';
import { CREATE_STEPS } from './steps';
import type { Step } from './step-runner';
import { timingsOf, type ClusterContext } from './cluster-context';
import { applyOperationActions, opInstances, taskView } from './apply-actions';

const step = (name: CreateStep): Step<ClusterContext> => ({
  def: CREATE_STEPS.find((s) => s.name === name)!,
  run: async (ctx) => {
    const plan = planCreateStep(name, {
      instances: opInstances(ctx), form: taskView(ctx, { kind: 'form', clusterId: ctx.cluster.id }), endpointServed: ctx.endpointServed,
      now: Date.now(), reformAfterMs: timingsOf(ctx.deps).reformAfterMs, forgetting: ctx.lost.filter((l) => !l.forgottenAt).length,
    });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  },
});

export const createClusterSteps: Step<ClusterContext>[] = CREATE_STEPS.map((s) => step(s.name));
