/**
 * An in-place TLS switch of a valkey-8 cluster (tls-switch): one step per stage of the engine's plan
 * (`planTlsChange`), each carried out instance by instance by the instances' agents, replicas before primaries,
 * without a restart. An instance whose part is done records its own layout (so a restart meanwhile renders what it
 * serves); once every instance's is, the cluster's layout moves on (second ports released when one protocol is left)
 * and an event says what is served now. Every step re-derives where it is from the stored layouts: a control plane
 * restarted mid-stage carries on where the records say.
 */
import { shardLabel } from '@strata/api';
import { secondProtocolMovesHome, servesBoth, type TlsLayout } from '@strata/engine';
import type { Step, StepResult } from './step-runner';
import { healthyMembersOf, inTx, type ClusterContext } from './cluster-context';
import { instanceLayout, switchTlsOn, taskFor } from './applier';
import { eventKey } from './dedupe-keys';
import { tlsServedWords, tlsStageStep, type TlsSwitchPlanRecord } from './update-plan';
import type { InstanceRow } from '../stores/cluster.store';
import { SECOND_ENDPOINT_LINGER_MS } from '../services/second-ports';

const planOf = (ctx: ClusterContext) => ctx.operation!.plan as TlsSwitchPlanRecord;
const running = (ctx: ClusterContext, i: InstanceRow) => ctx.observe(i.id)?.state === 'running';

/** How long the last stage waits for every instance to report healthy again before it ends anyway (the switch is done). */
const SETTLE_MAX_MS = 60_000;

/**
 * The last stage ends once every instance is a healthy member again over what is served now, so that a caller
 * waiting for the operation (Terraform's wait_for_ready) finds the cluster ready; bounded, since the switch itself
 * is complete and a cluster degraded for another reason must not hold the operation.
 */
function settled(ctx: ClusterContext, name: string, after: TlsLayout): StepResult {
  const healthy = healthyMembersOf(ctx);
  const notYet = ctx.instances.filter((i) => !healthy.has(i.id)).length;
  if (!notYet) return { kind: 'done' };
  const started = ctx.operation?.steps.find((s) => s.name === name)?.startedAt;
  if (started && Date.now() - Date.parse(started) > SETTLE_MAX_MS) return { kind: 'done' };
  return { kind: 'wait', detail: `every instance serves ${tlsServedWords(after)}; waiting for ${notYet} of ${ctx.instances.length} to report healthy`, fraction: 0.99 };
}

async function runStage(ctx: ClusterContext, index: number): Promise<StepResult> {
  const plan = planOf(ctx);
  const { step, after } = plan.stages[index]!;
  const before: TlsLayout = index === 0 ? plan.from : plan.stages[index - 1]!.after;
  const name = tlsStageStep(plan.stages[index]!, 0).name;
  const last = index === plan.stages.length - 1;
  if (ctx.cluster.tlsLayout === after) return last ? settled(ctx, name, after) : { kind: 'done' };
  // Every step runs on every pass: a stage whose layout a later stage has already moved on from is done.
  if (plan.stages.slice(index + 1).some((s) => s.after === ctx.cluster.tlsLayout && s.after !== plan.from)) return { kind: 'done' };
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
  return last ? settled(ctx, name, after) : { kind: 'done' };
}

/** The cluster's layout moves on and the event telling it commit together (a crash between would lose the event for good). */
async function record(ctx: ClusterContext, stage: string, after: TlsLayout): Promise<void> {
  const linger = secondProtocolMovesHome(ctx.cluster.tlsLayout, after) ? SECOND_ENDPOINT_LINGER_MS : 0;
  await inTx(ctx, async (db) => {
    await ctx.deps.clusters.setTlsLayout(ctx.cluster.id, after, servesBoth(after), db, linger);
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
