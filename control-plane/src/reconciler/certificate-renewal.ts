/**
 * Certificate rotation of a TLS cluster: every running instance serves a
 * certificate that is not about to expire. Asks the pure planner which
 * instances are due (their agents report when the certificate they serve
 * expires) and has the applier send each a `renew-certificate` task (a
 * fresh certificate from the cluster's CA, loaded without a restart). A
 * renewal is told as a `certificate-rotated` event once the instance
 * reports the new expiry.
 */
import { X509Certificate } from 'node:crypto';
import { DEFAULT_RENEW_BEFORE_DAYS, planCertificateRenewal, type RenewCertificateAction } from '@strata/engine';
import type { ClusterContext } from './cluster-context';
import { applyAction } from './apply-actions';
import { eventKey } from './dedupe-keys';
import { eventRef } from './failover-event';
import { openSecrets } from '../services/cluster-secrets';

const DAY_MS = 86_400_000;

/** The renewal window the control plane was started with (STRATA_TLS_RENEW_BEFORE_DAYS), or the default. */
export const renewBeforeMsOf = (ctx: ClusterContext): number => ctx.deps.tlsRenewBeforeMs ?? DEFAULT_RENEW_BEFORE_DAYS * DAY_MS;

const expiryOf = (ctx: ClusterContext, instanceId: string): number | null => {
  const at = ctx.observe(instanceId)?.certificateExpiresAt;
  return at ? Date.parse(at) : null;
};

/** When the cluster's CA expires (ms epoch); null: the cluster has no CA. */
function caExpiry(ctx: ClusterContext): number | null {
  const ca = openSecrets(ctx.deps.box, ctx.cluster.secretsEnc).tlsCa;
  return ca ? Date.parse(new X509Certificate(ca.certificate).validTo) : null;
}

/** The instances whose certificate is due for renewal now. */
export function planRenewalsFor(ctx: ClusterContext, now = Date.now()): RenewCertificateAction[] {
  const instances = ctx.instances.map((i) => ({ id: i.id, running: ctx.observe(i.id)?.state === 'running', certificateExpiresAt: expiryOf(ctx, i.id) }));
  const renewBeforeMs = renewBeforeMsOf(ctx);
  // The CA is read (its secrets opened) only when some certificate is due: most passes over most clusters need none.
  if (!instances.some((i) => i.running && i.certificateExpiresAt !== null && i.certificateExpiresAt - now <= renewBeforeMs)) return [];
  const caExpiresAt = caExpiry(ctx);
  if (caExpiresAt === null) return [];
  return planCertificateRenewal({ now, renewBeforeMs, caExpiresAt, instances });
}

/** Plans and applies. `pending`: renewals handed out whose new certificate is not reported yet. */
export async function renewCertificates(ctx: ClusterContext, now = Date.now()): Promise<{ pending: boolean }> {
  const actions = planRenewalsFor(ctx, now);
  for (const a of actions) await applyAction(ctx, a);
  return { pending: actions.length > 0 };
}

/**
 * A renewal that took: its task succeeded and the instance reports a later
 * expiry than the certificate it replaced. One event per renewal.
 */
export async function recordRotatedCertificates(ctx: ClusterContext): Promise<void> {
  for (const t of ctx.tasks.values()) {
    if (t.kind !== 'renew-certificate' || t.state !== 'succeeded') continue;
    const p = t.payload as { instanceId: string; replaces: string };
    const inst = ctx.instances.find((i) => i.id === p.instanceId);
    const expiresAt = expiryOf(ctx, p.instanceId);
    const previous = Date.parse(p.replaces);
    if (!inst || expiresAt === null || expiresAt <= previous) continue;
    await ctx.deps.events.record(ctx.cluster, {
      type: 'certificate-rotated', shard: inst.shardIndex, instance: eventRef(ctx, inst),
      previousExpiresAt: new Date(previous).toISOString(), expiresAt: new Date(expiresAt).toISOString(),
      message: `Instance ${eventRef(ctx, inst).address} serves a fresh certificate, valid until ${new Date(expiresAt).toISOString().slice(0, 10)} (the old one would have expired ${new Date(previous).toISOString().slice(0, 10)}); no restart.`,
    }, eventKey({ type: 'certificate-rotated', instanceId: inst.id, previousExpiresAt: previous }));
  }
}
