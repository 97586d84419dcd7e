import { DELETE_STEPS } from './steps';
import type { Step } from './step-runner';
import type { ClusterContext } from './cluster-context';
import { instanceGone, removeInstance } from './applier';

const def = (name: (typeof DELETE_STEPS)[number]['name']) => DELETE_STEPS.find((s) => s.name === name)!;

/** Every instance is removed (its process stopped and its data deleted by its agent). */
const stopInstances: Step<ClusterContext> = {
  def: def('stop-instances'),
  run: async (ctx) => {
    let gone = 0;
    const waitingOn = new Set<string>();
    for (const i of ctx.instances) {
      if (instanceGone(ctx, i)) {
        gone++;
        continue;
      }
      waitingOn.add(ctx.nodes.get(i.nodeId)?.name ?? i.nodeId);
      const failed = await removeInstance(ctx, i);
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
