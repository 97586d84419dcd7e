import { CREATE_STEPS } from './steps';
import type { Step } from './step-runner';
import { healthyMembersOf, timingsOf, type ClusterContext } from './cluster-context';
import { formCluster as formClusterTask, rememberEngineIds, startInstance, taskFor } from './applier';

const def = (name: (typeof CREATE_STEPS)[number]['name']) => CREATE_STEPS.find((s) => s.name === name)!;
const formTask = (ctx: ClusterContext) => taskFor(ctx, { kind: 'form', clusterId: ctx.cluster.id });

/** Placement happened when the request was accepted; this step records it. */
const plan: Step<ClusterContext> = {
  def: def('plan'),
  run: async (ctx) => {
    const nodes = new Set(ctx.instances.map((i) => i.nodeId)).size;
    return { kind: 'done', detail: `${ctx.instances.length} instances on ${nodes} nodes` };
  },
};

const startInstances: Step<ClusterContext> = {
  def: def('start-instances'),
  run: async (ctx) => {
    let running = 0;
    for (const i of ctx.instances) {
      if (ctx.observe(i.id)?.state === 'running') {
        running++;
        continue;
      }
      const failed = await startInstance(ctx, i);
      if (failed) return failed;
    }
    const total = ctx.instances.length;
    return running === total ? { kind: 'done', detail: `${total} of ${total} running` } : { kind: 'wait', detail: `${running} of ${total} running`, fraction: running / total };
  },
};

const formCluster: Step<ClusterContext> = {
  def: def('form-cluster'),
  run: async (ctx) => {
    const healthy = healthyMembersOf(ctx);
    if (formTask(ctx)?.state === 'succeeded' || ctx.instances.every((i) => healthy.has(i.id))) {
      return { kind: 'done' };
    }
    const failed = await formClusterTask(ctx);
    return failed ?? { kind: 'wait', detail: 'meeting nodes, assigning 16384 slots, attaching replicas' };
  },
};

const verify: Step<ClusterContext> = {
  def: def('verify'),
  run: async (ctx) => {
    const healthy = healthyMembersOf(ctx);
    const formed = ctx.instances.filter((i) => healthy.has(i.id)).length;
    const total = ctx.instances.length;
    // Ready means usable through the connection URI: an agent must serve the endpoint it names.
    if (formed === total && ctx.endpointServed === false) return { kind: 'wait', detail: `${total} of ${total} nodes agree; waiting for an agent to serve the endpoint`, fraction: 0.99 };
    if (formed === total) {
      // Every instance's Redis id is known from the start (replicas are matched to their primary by it).
      await rememberEngineIds(ctx, ctx.instances);
      return { kind: 'done', detail: `${total} of ${total} nodes agree` };
    }
    // The form task succeeded but the nodes disagree later: form again (idempotent).
    const task = formTask(ctx);
    if (task?.state === 'succeeded' && Date.now() - task.updatedAt.getTime() > timingsOf(ctx.deps).reformAfterMs) {
      const failed = await formClusterTask(ctx);
      if (failed) return failed;
    }
    return { kind: 'wait', detail: `${formed} of ${total} nodes agree`, fraction: formed / total };
  },
};

export const createClusterSteps: Step<ClusterContext>[] = [plan, startInstances, formCluster, verify];
