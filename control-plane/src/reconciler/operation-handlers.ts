/**
 * One handler per operation kind, in an exhaustive map: adding a kind to the
 * API without a handler does not compile, and a kind this process does not
 * know (a newer control plane wrote it) fails loudly instead of running
 * another kind's steps.
 */
import type { OperationKind } from '@strata/api';
import type { Step } from './step-runner';
import { inTx, type ClusterContext } from './cluster-context';
import { createClusterSteps } from './create-cluster.steps';
import { deleteClusterSteps } from './delete-cluster.steps';
import { updateClusterSteps } from './update-cluster.steps';
import { recordSwitchover, switchoverSteps } from './switchover.steps';
import { restartStartsAt, restartSteps } from './restart.steps';
import { rotateCaSteps } from './rotate-ca.steps';
import { tlsSwitchSteps } from './tls-switch.steps';
import type { RestartPlanRecord } from './update-plan';
import { recordRestore } from './restore-event';

export interface OperationHandler {
  /** The ordered steps, fixed per kind or chosen from the operation's plan. */
  steps: Step<ClusterContext>[] | ((ctx: ClusterContext) => Step<ClusterContext>[]);
  /** The state a finished run ends in (default succeeded; a cancelled update that rolled back ends cancelled). */
  finalState?: (ctx: ClusterContext) => 'succeeded' | 'cancelled';
  /** An operation that has not started and must not yet (it waits for the maintenance window): when it will, and why in words. */
  waitsUntil?(ctx: ClusterContext, now: number): { startsAt: string; detail: string } | null;
  /**
   * What a finished run records besides the cluster's status (which `writeStatus` derives from the operation).
   * Runs before the operation is saved as finished, and again after a crash in between: it must be idempotent.
   */
  onSucceeded?(ctx: ClusterContext): Promise<void>;
  /**
   * The operation never changes the cluster's topology, and may wait a long
   * time (a CA rotation keeps the old CA trusted for hours or days): healing
   * runs beside it as when no operation runs, so a primary that dies meanwhile
   * is replaced and lost copies are rebuilt.
   */
  healsAsWhenIdle?: true;
}

export const OPERATION_HANDLERS: { readonly [K in OperationKind]: OperationHandler } = {
  'create-cluster': {
    steps: createClusterSteps,
    async onSucceeded(ctx) {
      await recordRestore(ctx);
    },
  },
  'delete-cluster': {
    steps: deleteClusterSteps,
    async onSucceeded(ctx) {
      // The cluster's row holds the lease every write is fenced by: its removal and the operation's end commit together.
      await inTx(ctx, async (db) => {
        await ctx.deps.clusters.delete(ctx.cluster.id, db);
        await ctx.deps.operations.save(ctx.operation!, db);
      });
    },
  },
  'update-cluster': {
    steps: updateClusterSteps,
    finalState: (ctx) => (ctx.operation?.cancelRequested ? 'cancelled' : 'succeeded'),
  },
  'restart-cluster': {
    steps: restartSteps,
    waitsUntil: (ctx, now) => restartStartsAt(ctx.operation!.plan as RestartPlanRecord, ctx.cluster.spec.maintenanceWindow, now),
  },
  'rotate-ca': {
    steps: rotateCaSteps,
    healsAsWhenIdle: true,
  },
  'tls-switch': {
    steps: tlsSwitchSteps,
    // No instance is added, removed or restarted: a primary that dies meanwhile is replaced as when idle.
    healsAsWhenIdle: true,
  },
  switchover: {
    steps: switchoverSteps,
    async onSucceeded(ctx) {
      await recordSwitchover(ctx);
    },
  },
};

export function handlerFor(kind: string): OperationHandler | null {
  return Object.hasOwn(OPERATION_HANDLERS, kind) ? OPERATION_HANDLERS[kind as OperationKind] : null;
}
