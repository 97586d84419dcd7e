import type { EngineCredentials } from '@strata/api';
import { clientTrustBundle } from '@strata/engine';
import type { TlsLayout } from '@strata/engine';
import type { SecretBox } from '../crypto/secret-box';
import type { PemPair } from '../crypto/cluster-ca';

/** The secrets of one cluster, stored sealed in clusters.secrets_enc: engine users and, for a TLS cluster, its CA. */
export interface ClusterSecrets {
  customerUser: string;
  customerPassword: string;
  internalUser: string;
  internalPassword: string;
  /** The cluster's CA (certificate and key) when TLS is required; its key never leaves the control plane. */
  tlsCa?: PemPair;
  /**
   * A CA rotation under way: `tlsCa` is the new CA, `previous` the old one's
   * certificate (still trusted), `cross` the new CA signed by the old one
   * (sent after every certificate the new CA signs). Absent once the old CA
   * is retired.
   */
  tlsCaRotation?: { previous: string; cross: string };
}

/** The CAs that vouch for the cluster's instances now: the CA, and the old one while a rotation keeps it (PEM, one after another). */
export function trustedCas(s: ClusterSecrets): string | null {
  if (!s.tlsCa) return null;
  return s.tlsCaRotation ? clientTrustBundle(s.tlsCa.certificate, [s.tlsCaRotation.previous]) : s.tlsCa.certificate;
}

/** The file every instance of the cluster loads as its CA file (null: no TLS): the trusted CAs, then the issuers of live client certificates. */
export function desiredClientTrust(s: ClusterSecrets, issuers: readonly string[]): string | null {
  const cas = trustedCas(s);
  return cas === null ? null : clientTrustBundle(cas, issuers);
}

/** A certificate the CA just signed, as presented: during a rotation, followed by the cross-certificate to the old CA. */
export function presented(s: ClusterSecrets, p: PemPair): PemPair {
  return s.tlsCaRotation ? { certificate: p.certificate + s.tlsCaRotation.cross, privateKey: p.privateKey } : p;
}

export const openSecrets = (box: SecretBox, sealed: string): ClusterSecrets => JSON.parse(box.open(sealed)) as ClusterSecrets;

/**
 * What an agent gets with a task: the engine users, the CA certificate of a
 * TLS cluster, the client certificate Strata's own connections present and,
 * for a task that runs an instance, that instance's certificate. Never the
 * CA's key.
 */
export function engineCredentials(
  s: ClusterSecrets, certificates: { instance?: PemPair; client?: PemPair; trustedIssuers?: readonly string[] } = {},
  served?: { layout: TlsLayout; bus: boolean; tlsSwitch?: boolean },
): EngineCredentials {
  const { customerUser, customerPassword, internalUser, internalPassword } = s;
  const pem = (p: PemPair) => ({ certificate: p.certificate, privateKey: p.privateKey });
  // A cluster with a CA that serves no TLS now (switched off, bus plain) gets none, unless the task switches it on.
  const withTls = !!s.tlsCa && (!served || served.tlsSwitch || served.layout !== 'plain' || served.bus);
  const plainPort = !!served && (served.layout === 'plain' || served.layout === 'plain+tls');
  return {
    customerUser, customerPassword, internalUser, internalPassword,
    ...(withTls && s.tlsCa ? { tls: {
      ...(plainPort ? { plainPort: true } : {}),
      caCertificate: trustedCas(s)!,
      // What the instances trust for clients: the CA(s), and the issuers of the live client certificates.
      trustedCertificates: desiredClientTrust(s, certificates.trustedIssuers ?? [])!,
      ...(certificates.instance ? { instanceCertificate: pem(presented(s, certificates.instance)) } : {}),
      ...(certificates.client ? { clientCertificate: pem(presented(s, certificates.client)) } : {}),
    } } : {}),
  };
}
