/**
 * A throwaway CA and a server certificate it signed, made with the openssl
 * CLI, for tests and local HTTPS: `cert` is the chain file (server
 * certificate, then the CA), as the control plane's STRATA_TLS_CERT expects.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificates {
  caFile: string;
  /** Server certificate followed by the CA. */
  certFile: string;
  keyFile: string;
  /** SHA-256 of the CA (what agents pin), lower-case hex. */
  caSha256: string;
}

export function makeTestCertificates(dir: string, opts: { ips?: string[]; dns?: string[]; days?: number } = {}): TestCertificates {
  const f = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const days = String(opts.days ?? 30);
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'),
    '-days', days, '-subj', '/CN=Strata test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=strata-control-plane');
  const san = [...(opts.ips ?? ['127.0.0.1']).map((ip) => `IP:${ip}`), ...(opts.dns ?? ['localhost']).map((d) => `DNS:${d}`)].join(',');
  writeFileSync(f('server.ext'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  ssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', days, '-extfile', f('server.ext'));
  writeFileSync(f('chain.pem'), readFileSync(f('server.pem'), 'utf8') + readFileSync(f('ca.pem'), 'utf8'));
  const caSha256 = new X509Certificate(readFileSync(f('ca.pem'))).fingerprint256.replace(/:/g, '').toLowerCase();
  return { caFile: f('ca.pem'), certFile: f('chain.pem'), keyFile: f('server.key'), caSha256 };
}
