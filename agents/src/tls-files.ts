import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineCredentials } from '@strata/api';
import { clientTrustDigest, TLS_FILES, type TlsFiles } from '@strata/engine';

/**
 * Writes a TLS instance's CA, certificate and key into its directory (0600,
 * in a 0700 folder) and returns their paths relative to it (the engine runs
 * there). Without a certificate in the task (a restart from the registry),
 * the files already written stay.
 */
export function writeTlsFiles(instanceDir: string, tls: NonNullable<EngineCredentials['tls']>): TlsFiles {
  mkdirSync(path.join(instanceDir, path.dirname(TLS_FILES.caFile)), { recursive: true, mode: 0o700 });
  // Each file whole or not at all (a new file renamed over the old): an agent killed mid-write leaves no truncated PEM.
  const write = (file: string, pem: string) => {
    const target = path.join(instanceDir, file);
    writeFileSync(`${target}.tmp`, pem, { mode: 0o600 });
    renameSync(`${target}.tmp`, target);
  };
  // What the engine trusts: the CA and the issuers of the cluster's live client certificates (the CA alone from older records).
  write(TLS_FILES.caFile, tls.trustedCertificates ?? tls.caCertificate);
  if (tls.instanceCertificate) {
    write(TLS_FILES.certFile, tls.instanceCertificate.certificate);
    write(TLS_FILES.keyFile, tls.instanceCertificate.privateKey);
  }
  return TLS_FILES;
}

/** Digest of the CA file in an instance's directory (sha256 hex, as the control plane computes it); null: none there. */
export function trustFileDigest(instanceDir: string): string | null {
  const file = path.join(instanceDir, TLS_FILES.caFile);
  return existsSync(file) ? clientTrustDigest(readFileSync(file, 'utf8')) : null;
}

/** When the certificate in an instance's directory expires (ms epoch); null: no certificate there (a plain-text instance). */
export function certificateExpiry(instanceDir: string): number | null {
  const file = path.join(instanceDir, TLS_FILES.certFile);
  if (!existsSync(file)) return null;
  return Date.parse(new X509Certificate(readFileSync(file)).validTo);
}
