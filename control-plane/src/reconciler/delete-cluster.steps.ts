import { DELETE_STEPS } from './steps';
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { ensureTask, taskFor } from './task-step';

const def = (name: (typeof DELETE_STEPS)[number]['name']) => DELETE_STEPS.find((s) => s.name === name)!;

/**
 * An instance is gone when its remove task succeeded and the node has reported
 * since then without it: the agent stopped the process and deleted its data.
 */
const stopInstances: Step<ClusterContext> = {
  def: def('stop-instances'),
  run: async (ctx) => {
    let gone = 0;
    const waitingOn = new Set<string>();
    for (const i of ctx.instances) {
      const task = taskFor(ctx, { kind: 'remove', instanceId: i.id });
      const reportedAt = ctx.nodeReportedAt(i.nodeId);
      if (task?.state === 'succeeded' && reportedAt && reportedAt > task.updatedAt.getTime() && !ctx.observe(i.id)) {
        gone++;
        continue;
      }
      waitingOn.add(ctx.nodes.get(i.nodeId)?.name ?? i.nodeId);
      const failed = await ensureTask(ctx, {
        nodeId: i.nodeId, id: { kind: 'remove', instanceId: i.id },
        request: { kind: 'remove-instance', instanceId: i.id, clusterId: ctx.cluster.id }, settleMs: 3000,
      });
      if (failed) return failed;
    }
    const total = ctx.instances.length;
    if (gone === total) return { kind: 'done', detail: `${total} instances removed` };
    return { kind: 'wait', detail: `${gone} of ${total} removed; waiting on ${[...waitingOn].join(', ')}`, fraction: total ? gone / total : 1 };
  },
};

/** The record itself is removed by the reconciler after the operation is saved. */
const removeRecords: Step<ClusterContext> = {
  def: def('remove-records'),
  run: async () => ({ kind: 'done' }),
};

export const deleteClusterSteps: Step<ClusterContext>[] = [stopInstances, removeRecords];
