import type { EngineCredentials } from '@strata/api';
import { clientTrustBundle } from '@strata/engine';
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
}

export const openSecrets = (box: SecretBox, sealed: string): ClusterSecrets => JSON.parse(box.open(sealed)) as ClusterSecrets;

/**
 * What an agent gets with a task: the engine users, the CA certificate of a
 * TLS cluster, the client certificate Strata's own connections present and,
 * for a task that runs an instance, that instance's certificate. Never the
 * CA's key.
 */
export function engineCredentials(s: ClusterSecrets, certificates: { instance?: PemPair; client?: PemPair; trustedIssuers?: readonly string[] } = {}): EngineCredentials {
  const { customerUser, customerPassword, internalUser, internalPassword } = s;
  const pem = (p: PemPair) => ({ certificate: p.certificate, privateKey: p.privateKey });
  return {
    customerUser, customerPassword, internalUser, internalPassword,
    ...(s.tlsCa ? { tls: {
      caCertificate: s.tlsCa.certificate,
      // What the instances trust for clients: the CA, and the issuers of the live client certificates.
      trustedCertificates: clientTrustBundle(s.tlsCa.certificate, certificates.trustedIssuers ?? []),
      ...(certificates.instance ? { instanceCertificate: pem(certificates.instance) } : {}),
      ...(certificates.client ? { clientCertificate: pem(certificates.client) } : {}),
    } } : {}),
  };
}
