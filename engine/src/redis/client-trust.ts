/**
 * What a TLS cluster's instances trust when a client presents a
 * certificate: the cluster's CA (instances, Strata's own connections) and,
 * for each client certificate issued to an application and neither revoked
 * nor expired, the one-off issuer that signed it and nothing else. Redis 7.0
 * has no revocation list, so revoking a certificate drops its issuer from
 * the file the instances load as `tls-ca-cert-file` (reloaded by CONFIG
 * SET): the next handshake with it fails, and no other certificate changes.
 * Pure: the reconciler feeds it what agents report and applies what it
 * returns (a `sync-trust` task per instance whose trust lags).
 */
import { createHash } from 'node:crypto';

const pem = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);

/** The file every instance of the cluster loads as its CA file: the cluster's CA first, then the issuers in the order given. */
export function clientTrustBundle(caCertificate: string, issuers: readonly string[]): string {
  return [caCertificate, ...issuers].map(pem).join('');
}

/** Identity of a trust file (sha256 hex of its bytes): what an agent reports the engine loaded and what the planner compares. */
export function clientTrustDigest(bundle: string): string {
  return createHash('sha256').update(bundle).digest('hex');
}

/** One instance as the trust planner sees it. */
export interface TrustInstance {
  id: string;
  running: boolean;
  /** Digest of the CA file the engine loaded (at its start or its last reload); null: not known. */
  trustDigest: string | null;
}

/** Every running instance that loaded another trust file than the desired one gets a `sync-trust` (file rewritten, CONFIG SET). */
export function planTrustSync(input: { desiredDigest: string; instances: readonly TrustInstance[] }): { kind: 'sync-trust'; instanceId: string; digest: string }[] {
  return input.instances
    .filter((i) => i.running && i.trustDigest !== input.desiredDigest)
    .map((i) => ({ kind: 'sync-trust' as const, instanceId: i.id, digest: input.desiredDigest }));
}
