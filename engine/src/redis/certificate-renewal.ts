/**
 * Certificate renewal of a TLS cluster's instances: which running instance
 * serves a certificate that expires within the renewal window, and how long
 * a fresh certificate is valid. Pure: the reconciler feeds it what agents
 * report and applies what it returns (a `renew-certificate` task per
 * instance; the engine reloads its tls-* files without a restart).
 */

import type { ClusterAction } from './cluster-action';

const DAY_MS = 86_400_000;
/** An instance certificate's usual validity (the CA/Browser Forum's 397 days). */
export const INSTANCE_CERT_VALIDITY_DAYS = 397;
/** Renew this long before a certificate expires unless configured otherwise. */
export const DEFAULT_RENEW_BEFORE_DAYS = 30;

/**
 * How long a certificate issued now is valid: the usual validity, and at
 * least twice the renewal window, so a renewed certificate is never due
 * again at once (a window longer than the validity would renew forever).
 */
export function instanceCertValidityMs(renewBeforeMs: number): number {
  return Math.max(INSTANCE_CERT_VALIDITY_DAYS * DAY_MS, 2 * renewBeforeMs);
}

/** One instance as the renewal planner sees it. */
export interface CertificateInstance {
  id: string;
  running: boolean;
  /** When the certificate it serves expires (ms since the epoch); null: unknown (not reported yet). */
  certificateExpiresAt: number | null;
}

/** The expiry of the certificate being replaced is, with the instance, the identity of one renewal. */
export type RenewCertificateAction = Extract<ClusterAction, { kind: 'renew-certificate' }>;

/**
 * Every running instance whose certificate expires within `renewBeforeMs`
 * of `now` gets a fresh one, unless a fresh one could not expire later (the
 * CA itself expires first: renewing would change nothing, again and again).
 */
export function planCertificateRenewal(input: {
  now: number;
  renewBeforeMs: number;
  /** When the cluster's CA expires: no certificate it signs outlives it. */
  caExpiresAt: number;
  instances: readonly CertificateInstance[];
}): RenewCertificateAction[] {
  const renewedExpiry = Math.min(input.now + instanceCertValidityMs(input.renewBeforeMs), input.caExpiresAt);
  return input.instances
    .filter((i): i is CertificateInstance & { certificateExpiresAt: number } =>
      i.running && i.certificateExpiresAt !== null && i.certificateExpiresAt - input.now <= input.renewBeforeMs && renewedExpiry > i.certificateExpiresAt)
    .map((i) => ({ kind: 'renew-certificate' as const, instanceId: i.id, expiresAt: i.certificateExpiresAt }));
}

/** The earliest expiry among the certificates the instances serve (null: none known). */
export function earliestCertificateExpiry(instances: readonly Pick<CertificateInstance, 'certificateExpiresAt'>[]): number | null {
  const known = instances.map((i) => i.certificateExpiresAt).filter((x): x is number => x !== null);
  return known.length ? Math.min(...known) : null;
}
