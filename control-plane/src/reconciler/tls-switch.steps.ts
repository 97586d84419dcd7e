/**
 * An in-place TLS switch of a valkey-8 cluster (tls-switch): one step per stage of the engine's plan
 * (`planTlsChange`), each carried out instance by instance by the instances' agents, replicas before primaries,
 * without a restart. An instance whose part is done records its own layout (so a restart meanwhile renders what it
 * serves); once every instance's is, the cluster's layout moves on (second ports released when one protocol is left)
 * and an event says what is served now. Every step re-derives where it is from the stored layouts: a control plane
 * restarted mid-stage carries on where the records say.
 */
import { shardLabel } from '@strata/api';
import { servesBoth, type TlsLayout } from '@strata/engine';
import type { Step, StepResult } from './step-runner';
import { inTx, type ClusterContext } from './cluster-context';
import { instanceLayout, switchTlsOn, taskFor } from './applier';
import { eventKey } from './dedupe-keys';
import { tlsServedWords, tlsStageStep, type TlsSwitchPlanRecord } from './update-plan';
import type { InstanceRow } from '../stores/cluster.store';

const planOf = (ctx: ClusterContext) => ctx.operation!.plan as TlsSwitchPlanRecord;
const running = (ctx: ClusterContext, i: InstanceRow) => ctx.observe(i.id)?.state === 'running';

async function runStage(ctx: ClusterContext, index: number): Promise<StepResult> {
  const plan = planOf(ctx);
  const { step, after } = plan.stages[index]!;
  const before: TlsLayout = index === 0 ? plan.from : plan.stages[index - 1]!.after;
  const name = tlsStageStep(plan.stages[index]!, 0).name;
  if (ctx.cluster.tlsLayout === after) return { kind: 'done' };
  if (ctx.cluster.tlsLayout !== before) {
    return { kind: 'failed', code: 'tls_layout_mismatch', message: `the cluster serves ${tlsServedWords(ctx.cluster.tlsLayout)}, not ${tlsServedWords(before)} as this stage expects` };
  }
  const missing = ctx.instances.find((i) => !i.secondPort);
  if (missing) return { kind: 'failed', code: 'tls_second_port_missing', message: `instance ${missing.id} has no second port for the switch` };
  const total = ctx.instances.length;
  let done = 0;
  // Replicas first: a primary announcing its new port is what moves its replicas' links.
  for (const role of ['replica', 'primary'] as const) {
    const members = ctx.instances.filter((i) => i.role === role);
    const waiting: string[] = [];
    for (const inst of members) {
      if (instanceLayout(ctx, inst) === after) {
        done++;
        continue;
      }
      if (taskFor(ctx, { kind: 'tls-switch', instanceId: inst.id, stage: name })?.state === 'succeeded') {
        await inTx(ctx, (db) => ctx.deps.clusters.setInstanceTlsLayout(inst.id, after, db));
        inst.tlsLayout = after;
        done++;
        continue;
      }
      if (!running(ctx, inst)) {
        // Healing restarts or replaces it (with the layout it serves); its part runs once it is back.
        waiting.push(`${shardLabel(inst.shardIndex)} ${role} is not running`);
        continue;
      }
      const replicas = role === 'primary' ? ctx.instances.filter((r) => r.role === 'replica' && r.shardIndex === inst.shardIndex && running(ctx, r)).length : 0;
      const r = await switchTlsOn(ctx, inst, step, name, after, replicas);
      if (r) return r;
      waiting.push(`${shardLabel(inst.shardIndex)} ${role}`);
    }
    if (waiting.length) return { kind: 'wait', detail: `${done} of ${total} instances serve ${tlsServedWords(after)}; waiting for ${waiting.join(', ')}`, fraction: total ? done / total : 0 };
  }
  await record(ctx, name, after);
  return { kind: 'done' };
}

/** The cluster's layout moves on and the event telling it commit together (a crash between would lose the event for good). */
async function record(ctx: ClusterContext, stage: string, after: TlsLayout): Promise<void> {
  await inTx(ctx, async (db) => {
    await ctx.deps.clusters.setTlsLayout(ctx.cluster.id, after, servesBoth(after), db);
    const message = servesBoth(after)
      ? `TLS: every instance serves ${tlsServedWords(after)}; clients can move to the ${after === 'plain+tls' ? 'TLS' : 'plain-text'} URI (GET /connection) before the other protocol closes.`
      : `TLS: every instance serves ${tlsServedWords(after)}; the second ports are released.`;
    await ctx.deps.events.record(ctx.cluster, { type: 'tls-switched', stage, served: after, message }, eventKey({ type: 'tls-switched', operationId: ctx.operationId!, stage }), db);
  });
  ctx.cluster.tlsLayout = after;
  for (const i of ctx.instances) {
    i.tlsLayout = null;
    if (!servesBoth(after)) i.secondPort = null;
  }
}

/** The operation's steps: one per stage of its plan. */
export function tlsSwitchSteps(ctx: ClusterContext): Step<ClusterContext>[] {
  const stages = planOf(ctx).stages;
  return stages.map((s, i) => ({ def: tlsStageStep(s, 1 / stages.length), run: (c: ClusterContext) => runStage(c, i) }));
}
