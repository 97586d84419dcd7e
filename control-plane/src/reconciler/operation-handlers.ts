/**
 * One handler per operation kind, in an exhaustive map: adding a kind to the
 * API without a handler does not compile, and a kind this process does not
 * know (a newer control plane wrote it) fails loudly instead of running
 * another kind's steps.
 */
import type { OperationKind } from '@strata/api';
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { createClusterSteps } from './create-cluster.steps';
import { deleteClusterSteps } from './delete-cluster.steps';
import { updateClusterSteps } from './update-cluster.steps';
import { recordSwitchover, switchoverSteps } from './switchover.steps';
import { condition } from './condition';
import { evaluateHealth } from './health';

export interface OperationHandler {
  /** The ordered steps, fixed per kind or chosen from the operation's plan. */
  steps: Step<ClusterContext>[] | ((ctx: ClusterContext) => Step<ClusterContext>[]);
  /** The state a finished run ends in (default succeeded; a cancelled update that rolled back ends cancelled). */
  finalState?: (ctx: ClusterContext) => 'succeeded' | 'cancelled';
  onSucceeded(ctx: ClusterContext): Promise<void>;
  onFailed(ctx: ClusterContext, failure: { code: string; message: string }): Promise<void>;
}

const finishUpdate = async (ctx: ClusterContext) => {
  await ctx.deps.clusters.setStatus(ctx.cluster.id, 'ready', evaluateHealth(ctx).conditions);
  const fresh = await ctx.deps.clusters.get(ctx.cluster.id);
  if (fresh) await ctx.deps.clusters.setObservedGeneration(ctx.cluster.id, fresh.generation);
};

export const OPERATION_HANDLERS: { readonly [K in OperationKind]: OperationHandler } = {
  'create-cluster': {
    steps: createClusterSteps,
    async onSucceeded(ctx) {
      await ctx.deps.clusters.setStatus(ctx.cluster.id, 'ready', evaluateHealth(ctx).conditions);
      await ctx.deps.clusters.setObservedGeneration(ctx.cluster.id, ctx.cluster.generation);
    },
    async onFailed(ctx, f) {
      await ctx.deps.clusters.setStatus(ctx.cluster.id, 'failed', [condition('Provisioned', 'false', f.code, f.message)]);
    },
  },
  'delete-cluster': {
    steps: deleteClusterSteps,
    async onSucceeded(ctx) {
      await ctx.deps.clusters.delete(ctx.cluster.id);
    },
    async onFailed(ctx, f) {
      await ctx.deps.clusters.setStatus(ctx.cluster.id, 'failed', [condition('Deleted', 'false', f.code, f.message)]);
    },
  },
  'update-cluster': {
    steps: updateClusterSteps,
    finalState: (ctx) => (ctx.operation?.cancelRequested ? 'cancelled' : 'succeeded'),
    onSucceeded: finishUpdate,
    async onFailed(ctx, f) {
      // Healing takes over from here (open slots are closed, instances held to the stored topology).
      await ctx.deps.clusters.setStatus(ctx.cluster.id, 'degraded', [condition('Updated', 'false', f.code, f.message)]);
    },
  },
  switchover: {
    steps: switchoverSteps,
    async onSucceeded(ctx) {
      await recordSwitchover(ctx);
    },
    async onFailed(ctx, f) {
      await ctx.deps.clusters.setStatus(ctx.cluster.id, 'degraded', [condition('Switchover', 'false', f.code, f.message)]);
    },
  },
};

export function handlerFor(kind: string): OperationHandler | null {
  return Object.hasOwn(OPERATION_HANDLERS, kind) ? OPERATION_HANDLERS[kind as OperationKind] : null;
}
