/**
 * HTTPS for the API, the console and the agents' requests: the certificate
 * chain and key the operator gives (STRATA_TLS_CERT, STRATA_TLS_KEY), and the
 * pin agents check when they join: the SHA-256 of the chain's last
 * certificate (its CA when the file holds the chain, the certificate itself
 * when it is self-signed or alone).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface ServerTls {
  cert: string;
  key: string;
  /** Lower-case hex SHA-256 of the DER of the certificate agents pin. */
  caSha256: string;
  /** The leaf certificate's names and end, for the start-up line. */
  subjectAltName: string;
  validTo: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export const sha256Hex = (c: X509Certificate) => c.fingerprint256.replace(/:/g, '').toLowerCase();

export function loadServerTls(certFile: string, keyFile: string): ServerTls {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`STRATA_TLS_${what}: cannot read ${file}: ${(err as Error).message}`);
    }
  };
  const cert = read(certFile, 'CERT');
  const key = read(keyFile, 'KEY');
  const pems = cert.match(PEM_CERT) ?? [];
  if (!pems.length) throw new Error(`STRATA_TLS_CERT: ${certFile} holds no PEM certificate`);
  const chain = pems.map((p) => new X509Certificate(p));
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(`STRATA_TLS_KEY: ${keyFile} is not a PEM private key: ${(err as Error).message}`);
  }
  if (!chain[0]!.checkPrivateKey(privateKey)) throw new Error(`STRATA_TLS_KEY: ${keyFile} is not the key of the first certificate in ${certFile}`);
  return { cert, key, caSha256: sha256Hex(chain[chain.length - 1]!), subjectAltName: chain[0]!.subjectAltName ?? '', validTo: chain[0]!.validTo };
}
