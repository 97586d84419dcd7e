/**
 * Client trust of a TLS cluster: every running instance loaded the CA file
 * as desired now (the cluster's CA and the issuers of its live client
 * certificates). Asks the pure planner which instances lag (their agents
 * report the digest of the file each engine loaded) and has the applier
 * send each a `sync-trust` task (file rewritten, CONFIG SET, no restart).
 * Instances that start later write the file from their task's credentials.
 */
import { clientTrustDigest, planTrustSync, type ClusterAction } from '@strata/engine';
import type { ClusterContext } from './cluster-context';
import { applyAction } from './apply-actions';
import { desiredClientTrust, openSecrets } from '../services/cluster-secrets';

export type SyncTrustAction = Extract<ClusterAction, { kind: 'sync-trust' }>;

/** The digest of the trust file every instance should have loaded; null: the cluster has no TLS. */
export function desiredTrustDigest(ctx: ClusterContext): string | null {
  // Client certificates exist only on a cluster that requires TLS and serves it alone (not mid-switch).
  if (ctx.cluster.spec.tls !== 'required' || ctx.cluster.tlsLayout !== 'tls') return null;
  const bundle = desiredClientTrust(openSecrets(ctx.deps.box, ctx.cluster.secretsEnc), ctx.clientTrustIssuers ?? []);
  return bundle === null ? null : clientTrustDigest(bundle);
}

/** The instances whose loaded trust differs from the desired one. */
export function planTrustFor(ctx: ClusterContext): SyncTrustAction[] {
  const desiredDigest = desiredTrustDigest(ctx);
  if (desiredDigest === null) return [];
  return planTrustSync({
    desiredDigest,
    instances: ctx.instances.map((i) => {
      const o = ctx.observe(i.id);
      return { id: i.id, running: o?.state === 'running', trustDigest: o?.trustDigest ?? null };
    }),
  });
}

/** Plans and applies. `pending`: instances still to reload their trust (the cluster is not settled). */
export async function syncClientTrust(ctx: ClusterContext): Promise<{ pending: boolean }> {
  const actions = planTrustFor(ctx);
  for (const a of actions) await applyAction(ctx, a);
  return { pending: actions.length > 0 };
}
