/**
 * A CA rotation (rotate-ca). The request made the new CA the one that signs
 * and kept the old one trusted, with a cross-certificate (the new CA signed
 * by the old) sent after everything the new CA signs, so a peer or client
 * that trusts only the old CA still builds a chain. Then, in order:
 * every instance trusts both CAs (healing's `sync-trust`), every instance
 * serves a certificate from the new CA (`renew-certificate`, no restart),
 * the old CA is retired once `retireAfterSeconds` have passed (dropped from
 * the secrets, so from every instance's trust and from what clients are
 * given), and every instance is re-issued a certificate without the
 * cross-certificate.
 */
import type { Step, StepResult } from './step-runner';
import { inTx, type ClusterContext } from './cluster-context';
import { renewCertificate, taskFor } from './applier';
import { desiredTrustDigest } from './trust-sync';
import { openSecrets } from '../services/cluster-secrets';
import { ROTATE_CA_STEPS, type RotateCaPlanRecord } from './update-plan';

const planOf = (ctx: ClusterContext) => ctx.operation!.plan as RotateCaPlanRecord;
const running = (ctx: ClusterContext) => ctx.instances.filter((i) => ctx.observe(i.id)?.state === 'running');

/** Every running instance loaded the trust file as desired now. */
function trustLoaded(ctx: ClusterContext, what: string): StepResult {
  const desired = desiredTrustDigest(ctx);
  const all = running(ctx);
  const done = all.filter((i) => ctx.observe(i.id)?.trustDigest === desired).length;
  return done === all.length && all.length > 0 ? { kind: 'done' } : { kind: 'wait', detail: `${done} of ${all.length} instances ${what}`, fraction: all.length ? done / all.length : 0 };
}

/** A round of certificates for every running instance, told apart by `round` (the operation's, so never one of healing's renewals). */
async function reissue(ctx: ClusterContext, round: number): Promise<StepResult> {
  const marker = Date.parse(ctx.operation!.createdAt) + round;
  const all = running(ctx);
  let done = 0;
  for (const inst of all) {
    const t = taskFor(ctx, { kind: 'renew-certificate', instanceId: inst.id, expiresAt: marker });
    if (t?.state === 'succeeded') {
      done++;
      continue;
    }
    const r = await renewCertificate(ctx, inst, marker);
    if (r) return r;
  }
  return done === all.length && all.length > 0 ? { kind: 'done' } : { kind: 'wait', detail: `${done} of ${all.length} instances serve a certificate from the new CA`, fraction: all.length ? done / all.length : 0 };
}

const trustNew: Step<ClusterContext> = { def: ROTATE_CA_STEPS[0], run: async (ctx) => trustLoaded(ctx, 'trust the new CA') };

const reissueChained: Step<ClusterContext> = { def: ROTATE_CA_STEPS[1], run: (ctx) => reissue(ctx, 1) };

const retireOld: Step<ClusterContext> = {
  def: ROTATE_CA_STEPS[2],
  run: async (ctx) => {
    const secrets = openSecrets(ctx.deps.box, ctx.cluster.secretsEnc);
    if (secrets.tlsCaRotation) {
      const reissued = ctx.operation!.steps.find((s) => s.name === ROTATE_CA_STEPS[1].name)?.finishedAt;
      const at = Date.parse(reissued ?? new Date().toISOString()) + planOf(ctx).retireAfterSeconds * 1000;
      if (Date.now() < at) return { kind: 'wait', detail: `the old CA stays trusted until ${new Date(at).toISOString().replace('.000Z', 'Z')} (clients take the new CA meanwhile)` };
      // Not while an instance may still serve a certificate from the old CA: one on a node that does not report
      // (it would be cut off from the others once they trust the new CA alone), or one started or adopted since
      // the re-issue (a copy healing rebuilt, an agent back after an outage) that has no certificate of this round yet.
      const unseen = ctx.instances.filter((i) => !ctx.observe(i.id));
      if (unseen.length) return { kind: 'wait', detail: `${unseen.length} instance(s) on nodes that do not report: the old CA stays trusted until they serve a certificate from the new CA` };
      const caughtUp = await reissue(ctx, 1);
      if (caughtUp.kind !== 'done') return caughtUp;
      const { tlsCaRotation: _retired, ...rest } = secrets;
      const sealed = ctx.deps.box.seal(JSON.stringify(rest));
      await inTx(ctx, (db) => ctx.deps.clusters.setSecrets(ctx.cluster.id, sealed, db));
      ctx.cluster.secretsEnc = sealed;
    }
    return trustLoaded(ctx, 'no longer trust the old CA');
  },
};

const reissueFinal: Step<ClusterContext> = { def: ROTATE_CA_STEPS[3], run: (ctx) => reissue(ctx, 2) };

export const rotateCaSteps: Step<ClusterContext>[] = [trustNew, reissueChained, retireOld, reissueFinal];
