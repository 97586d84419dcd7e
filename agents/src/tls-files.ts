import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineCredentials } from '@strata/api';
import { TLS_FILES, type TlsFiles } from '@strata/engine';

/**
 * Writes a TLS instance's CA, certificate and key into its directory (0600,
 * in a 0700 folder) and returns their paths relative to it (the engine runs
 * there). Without a certificate in the task (a restart from the registry),
 * the files already written stay.
 */
export function writeTlsFiles(instanceDir: string, tls: NonNullable<EngineCredentials['tls']>): TlsFiles {
  mkdirSync(path.join(instanceDir, path.dirname(TLS_FILES.caFile)), { recursive: true, mode: 0o700 });
  const write = (file: string, pem: string) => writeFileSync(path.join(instanceDir, file), pem, { mode: 0o600 });
  write(TLS_FILES.caFile, tls.caCertificate);
  if (tls.instanceCertificate) {
    write(TLS_FILES.certFile, tls.instanceCertificate.certificate);
    write(TLS_FILES.keyFile, tls.instanceCertificate.privateKey);
  }
  return TLS_FILES;
}

/** When the certificate in an instance's directory expires (ms epoch); null: no certificate there (a plain-text instance). */
export function certificateExpiry(instanceDir: string): number | null {
  const file = path.join(instanceDir, TLS_FILES.certFile);
  if (!existsSync(file)) return null;
  return Date.parse(new X509Certificate(readFileSync(file)).validTo);
}
