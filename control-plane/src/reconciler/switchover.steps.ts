/**
 * A user's switchover of one shard: the chosen replica is promoted with a
 * plain CLUSTER FAILOVER (the primary pauses writes until the replica has
 * caught up, so no acknowledged write is lost); it becomes the shard's
 * preferred primary, and a failover event records it.
 */
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { planSwitchoverStep } from '@strata/engine';
import { preferPrimary, recordObserved, taskFor } from './applier';
import { applyOperationActions, opInstances } from './apply-actions';
import { eventKey } from './dedupe-keys';
import { eventRef } from './failover-event';
import { SWITCHOVER_STEPS, type SwitchoverPlanRecord } from './update-plan';
import { shardLabel } from '@strata/api';

const planOf = (ctx: ClusterContext) => ctx.operation!.plan as SwitchoverPlanRecord;

const switchover: Step<ClusterContext> = {
  def: SWITCHOVER_STEPS[0],
  run: async (ctx) => {
    const plan = planSwitchoverStep({ instances: opInstances(ctx), targetInstanceId: planOf(ctx).targetInstanceId });
    return (await applyOperationActions(ctx, plan.actions)) ?? plan.verdict;
  },
};

export const switchoverSteps: Step<ClusterContext>[] = [switchover];

/** Roles and preferred roles follow the switchover; the event says what happened. */
export async function recordSwitchover(ctx: ClusterContext): Promise<void> {
  const p = planOf(ctx);
  const target = ctx.instances.find((i) => i.id === p.targetInstanceId);
  const old = ctx.instances.find((i) => i.id === p.fromInstanceId);
  if (!target || !old) return;
  const { events } = ctx.deps;
  const tv = ctx.observe(target.id)?.cluster;
  if (tv) await recordObserved(ctx, target, { role: 'primary', engineId: tv.myId, configEpoch: tv.configEpoch });
  const ov = ctx.observe(old.id)?.cluster;
  if (ov) await recordObserved(ctx, old, { role: 'replica', engineId: ov.myId, configEpoch: ov.configEpoch });
  await preferPrimary(ctx, target, old);
  const ref = (i: typeof target) => eventRef(ctx, i);
  const task = taskFor(ctx, { kind: 'switchover-to', instanceId: target.id });
  const startedAt = Date.parse(ctx.operation!.createdAt);
  const now = Date.now();
  const promotedAt = task?.result?.kind === 'failover' ? Date.parse(task.result.promotedAt) : now;
  await events.record(ctx.cluster, {
    type: 'failover', shard: p.shard, cause: 'switchover', oldPrimary: ref(old), newPrimary: ref(target),
    detectedAt: new Date(startedAt).toISOString(), promotedAt: new Date(promotedAt).toISOString(), clusterOkAt: new Date(now).toISOString(),
    writeUnavailableMs: null,
    message: `${shardLabel(p.shard)}: switchover requested; ${ref(target).address} (${ref(target).nodeName}) took over from ${ref(old).address} (${ref(old).nodeName}) once it had caught up. No acknowledged write is lost.`,
  }, eventKey({ type: 'switchover-operation', operationId: ctx.operation!.id }));
}
