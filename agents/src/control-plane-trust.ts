/**
 * Which certificate the agent trusts for an HTTPS control plane. At its join
 * the agent is given the SHA-256 of the control plane's CA (the join token's
 * `controlPlaneCaSha256`, as STRATA_CA_SHA256): it reads the chain the server
 * presents, keeps the certificate with that fingerprint, and from then on
 * verifies every connection against it (kept in its data directory, so later
 * starts need neither the pin nor the network to decide). STRATA_CA_FILE names
 * a CA to trust instead; with neither, the system's CAs are trusted.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tls, { type PeerCertificate } from 'node:tls';
import type { Logger } from 'pino';

export const PINNED_CA_FILE = 'control-plane-ca.pem';

const toPem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
const sha256Of = (der: Buffer) => new X509Certificate(der).fingerprint256.replace(/:/g, '').toLowerCase();

/** Every certificate the server presented, leaf first (Node links them by `issuerCertificate`). */
export async function presentedChain(url: URL, timeoutMs = 5000): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: url.hostname, port: Number(url.port || 443), servername: /^[\d.]+$/.test(url.hostname) ? undefined : url.hostname,
      // Not trusted yet: what it presents is compared with the pin before anything is sent.
      rejectUnauthorized: false,
    }, () => {
      const chain: Buffer[] = [];
      let c: PeerCertificate | undefined = socket.getPeerCertificate(true);
      while (c?.raw && !chain.some((d) => d.equals(c!.raw))) {
        chain.push(c.raw);
        c = (c as PeerCertificate & { issuerCertificate?: PeerCertificate }).issuerCertificate;
      }
      socket.end();
      resolve(chain);
    });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no TLS answer from ${url.host} within ${timeoutMs} ms`)));
    socket.on('error', reject);
  });
}

/**
 * The CA to verify the control plane with (PEM), or undefined for plain HTTP or the system's CAs. With several
 * control planes (one deployment, one CA) the pin is read from the first that answers.
 */
export async function controlPlaneTrust(o: { controlPlaneUrl: string; controlPlaneUrls?: readonly string[]; dataDir: string; caFile?: string; caSha256?: string; log: Logger }): Promise<string | undefined> {
  const urls = (o.controlPlaneUrls?.length ? o.controlPlaneUrls : [o.controlPlaneUrl]).map((u) => new URL(u));
  const url = urls[0]!;
  if (url.protocol !== 'https:') return undefined;
  const pinned = path.join(o.dataDir, PINNED_CA_FILE);
  if (o.caFile) return readFileSync(o.caFile, 'utf8');
  if (existsSync(pinned)) return readFileSync(pinned, 'utf8');
  if (!o.caSha256) {
    o.log.info('no STRATA_CA_SHA256 or STRATA_CA_FILE: the control plane\'s certificate must be trusted by the system\'s CAs');
    return undefined;
  }
  const want = o.caSha256.replace(/:/g, '').toLowerCase();
  let chain: Buffer[] | undefined;
  let from = url;
  for (const [i, u] of urls.entries()) {
    try {
      chain = await presentedChain(u);
      from = u;
      break;
    } catch (err) {
      if (i === urls.length - 1) throw err;
      o.log.warn({ controlPlane: u.host, err: (err as Error).message }, 'could not read the control plane\'s certificate; trying the next one');
    }
  }
  chain ??= [];
  const match = chain.find((der) => sha256Of(der) === want);
  if (!match) {
    throw Object.assign(new Error(`the control plane at ${from.host} presented no certificate with SHA-256 ${want} `
      + `(it presented ${chain.map(sha256Of).join(', ') || 'none'}): check STRATA_URL and STRATA_CA_SHA256 (the join token's controlPlaneCaSha256); nothing was sent`), { status: 400 });
  }
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(pinned + '.tmp', toPem(match), { mode: 0o600 });
  renameSync(pinned + '.tmp', pinned);
  o.log.info({ sha256: want, file: pinned }, 'pinned the control plane\'s certificate');
  return toPem(match);
}
