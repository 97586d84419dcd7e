import type { FormClusterShard, InstanceSpec } from '@strata/api';
import { planSlots } from '@strata/engine';
import { CREATE_STEPS } from './steps';
import type { Step } from './step-runner';
import { address, healthyMembersOf, type ClusterContext } from './cluster-context';
import { ensureTask, taskFor } from './task-step';
import type { TaskId } from './dedupe-keys';
import { rememberEngineIds } from './record-observed';

const def = (name: (typeof CREATE_STEPS)[number]['name']) => CREATE_STEPS.find((s) => s.name === name)!;

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
      const spec = ctx.cluster.spec;
      const instance: InstanceSpec = {
        instanceId: i.id, clusterId: ctx.cluster.id, port: i.port, memoryMb: i.memoryMb,
        durability: spec.durability, evictionPolicy: spec.evictionPolicy,
      };
      const failed = await ensureTask(ctx, {
        nodeId: i.nodeId, id: { kind: 'start', instanceId: i.id }, request: { kind: 'ensure-instance', instance }, settleMs: 3000,
      });
      if (failed) return failed;
    }
    const total = ctx.instances.length;
    return running === total ? { kind: 'done', detail: `${total} of ${total} running` } : { kind: 'wait', detail: `${running} of ${total} running`, fraction: running / total };
  },
};

export function formPayload(ctx: ClusterContext): { kind: 'form-cluster'; clusterId: string; shards: FormClusterShard[] } {
  const stored = ctx.shards.length ? ctx.shards.map((s) => s.slots) : planSlots(ctx.cluster.spec.shards).map((r) => [r]);
  const shards: FormClusterShard[] = stored.map((slots, index) => {
    const members = ctx.instances.filter((i) => i.shardIndex === index);
    const member = (i: (typeof members)[number]) => ({ instanceId: i.id, ...address(ctx, i) });
    return {
      slots,
      primary: member(members.find((i) => i.role === 'primary')!),
      replicas: members.filter((i) => i.role === 'replica').map(member),
    };
  });
  return { kind: 'form-cluster', clusterId: ctx.cluster.id, shards };
}

const formId = (ctx: ClusterContext): TaskId => ({ kind: 'form', clusterId: ctx.cluster.id });

/** Hands the (idempotent) form-cluster task to the agent of shard 0's primary. */
function ensureFormTask(ctx: ClusterContext) {
  const seed = ctx.instances.find((i) => i.shardIndex === 0 && i.role === 'primary')!;
  return ensureTask(ctx, { nodeId: seed.nodeId, id: formId(ctx), request: formPayload(ctx), settleMs: 5000 });
}

const formCluster: Step<ClusterContext> = {
  def: def('form-cluster'),
  run: async (ctx) => {
    const healthy = healthyMembersOf(ctx);
    if (taskFor(ctx, formId(ctx))?.state === 'succeeded' || ctx.instances.every((i) => healthy.has(i.id))) {
      return { kind: 'done' };
    }
    const failed = await ensureFormTask(ctx);
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
    const task = taskFor(ctx, formId(ctx));
    if (task?.state === 'succeeded' && Date.now() - task.updatedAt.getTime() > 5000) {
      const failed = await ensureFormTask(ctx);
      if (failed) return failed;
    }
    return { kind: 'wait', detail: `${formed} of ${total} nodes agree`, fraction: formed / total };
  },
};

export const createClusterSteps: Step<ClusterContext>[] = [plan, startInstances, formCluster, verify];
