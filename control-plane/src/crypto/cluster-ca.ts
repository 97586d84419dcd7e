/**
 * The certificate authority of one TLS cluster: a self-signed ECDSA P-256
 * CA made when the cluster is created (its key sealed with the cluster's
 * other secrets), and the instance certificates it signs. An instance's
 * certificate names the address of the node it runs on and the cluster's
 * endpoint host, so a client that verifies hostnames accepts it whether it
 * came in through the endpoint or was redirected to the node. Client
 * certificates (mTLS) name what they are for and are valid for client use
 * only.
 */
import 'reflect-metadata';
import { isIP } from 'node:net';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { DEFAULT_RENEW_BEFORE_DAYS, instanceCertValidityMs } from '@strata/engine';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** The CA outlives any instance certificate it signs. */
export const CA_VALIDITY_DAYS = 3650;

export interface PemPair {
  certificate: string;
  privateKey: string;
}

/**
 * A certificate serial number from 16 random bytes, as hex: positive (top bit clear) and with a non-zero first byte,
 * so the hex Strata stores and shows is the one every tool prints for the certificate (a leading zero byte is not
 * part of the number: Node's X509Certificate and openssl would print it without, 1 time in 128).
 */
export function serialFrom(b: Buffer): string {
  const out = Buffer.from(b);
  out[0] = (out[0]! & 0x7f) || 0x01;
  return out.toString('hex');
}

const serial = () => serialFrom(randomBytes(16));

const pkcs8Pem = async (key: CryptoKey): Promise<string> => {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
};

const importPkcs8 = (pem: string): Promise<CryptoKey> => {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, ALG, false, ['sign']);
};

/** A new CA for the named cluster. */
export async function createClusterCa(clusterName: string, now = new Date()): Promise<PemPair> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [`Strata cluster CA ${clusterName}`] }, { O: ['Strata'] }],
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + CA_VALIDITY_DAYS * DAY_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: cert.toString('pem') + '\n', privateKey: await pkcs8Pem(keys.privateKey) };
}

/**
 * A certificate for one instance, valid for TLS server and client use (the
 * instance also connects out: replication, cluster bus, MIGRATE). `hosts`
 * become subject alternative names: IP addresses as IP entries, names as DNS.
 * Valid for `validityMs` (the renewal policy's, `instanceCertValidityMs`), never past the CA.
 */
export async function issueInstanceCertificate(ca: PemPair, hosts: readonly string[], opts: { validityMs?: number; now?: Date } = {}): Promise<PemPair> {
  const now = opts.now ?? new Date();
  const validityMs = opts.validityMs ?? instanceCertValidityMs(DEFAULT_RENEW_BEFORE_DAYS * DAY_MS);
  const names = [...new Set(hosts.filter(Boolean))];
  if (!names.length) throw new Error('an instance certificate needs at least one host');
  const caCert = new x509.X509Certificate(ca.certificate);
  const caKey = await importPkcs8(ca.privateKey);
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: [{ CN: [names[0]!] }, { O: ['Strata'] }],
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(Math.min(now.getTime() + validityMs, caCert.notAfter.getTime())),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((h) => (isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }))),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certificate: cert.toString('pem') + '\n', privateKey: await pkcs8Pem(keys.privateKey) };
}

/**
 * A client certificate (TLS client use only) signed by the cluster's CA:
 * what an application, or Strata's own connections, present to a cluster
 * that requires client certificates. `name` becomes the subject's common
 * name. Valid for `validityMs`, never past the CA.
 */
export async function issueClientCertificate(ca: PemPair, name: string, opts: { validityMs: number; now?: Date }): Promise<PemPair & { serialNumber: string; expiresAt: Date }> {
  const now = opts.now ?? new Date();
  const caCert = new x509.X509Certificate(ca.certificate);
  const caKey = await importPkcs8(ca.privateKey);
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const serialNumber = serial();
  const expiresAt = new Date(Math.min(now.getTime() + opts.validityMs, caCert.notAfter.getTime()));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject: [{ CN: [name] }, { O: ['Strata'] }],
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: expiresAt,
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certificate: cert.toString('pem') + '\n', privateKey: await pkcs8Pem(keys.privateKey), serialNumber: serialNumber.toUpperCase(), expiresAt: cert.notAfter };
}

/**
 * A client certificate for an application, revocable: signed by a one-off
 * issuer (a self-signed CA made for it, allowed to sign end certificates
 * only) whose key is dropped at once, so the issuer vouches for this one
 * certificate and nothing else. The cluster's instances trust the issuer
 * while the certificate is live; revoking it means dropping the issuer from
 * their trust. Valid for `validityMs`, never past the cluster's CA.
 */
export async function issueRevocableClientCertificate(ca: { certificate: string }, name: string, opts: { validityMs: number; now?: Date }): Promise<PemPair & { serialNumber: string; expiresAt: Date; issuerCertificate: string }> {
  const now = opts.now ?? new Date();
  const caCert = new x509.X509Certificate(ca.certificate);
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(Math.min(now.getTime() + opts.validityMs, caCert.notAfter.getTime()));
  const serialNumber = serial();
  const issuerKeys = (await webcrypto.subtle.generateKey(ALG, false, ['sign', 'verify'])) as CryptoKeyPair;
  const issuer = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [`Strata client issuer ${serialNumber.toUpperCase()}`] }, { O: ['Strata'] }],
    notBefore, notAfter, keys: issuerKeys, signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      await x509.SubjectKeyIdentifierExtension.create(issuerKeys.publicKey),
    ],
  });
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject: [{ CN: [name] }, { O: ['Strata'] }],
    issuer: issuer.subject,
    notBefore, notAfter,
    publicKey: keys.publicKey,
    signingKey: issuerKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer),
    ],
  });
  return {
    certificate: cert.toString('pem') + '\n', privateKey: await pkcs8Pem(keys.privateKey),
    serialNumber: serialNumber.toUpperCase(), expiresAt: cert.notAfter, issuerCertificate: issuer.toString('pem') + '\n',
  };
}

/**
 * A cross-certificate for a CA rotation: the new CA's name and public key,
 * signed by the old CA. Sent after an instance's certificate from the new CA
 * (and after Strata's own client certificate), it lets a peer that trusts
 * only the old CA build a chain to it; a peer that trusts the new CA stops at
 * the new CA itself. Valid as long as the old CA.
 */
export async function crossCertificate(newCa: { certificate: string }, oldCa: PemPair): Promise<string> {
  const next = new x509.X509Certificate(newCa.certificate);
  const old = new x509.X509Certificate(oldCa.certificate);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: next.subject,
    issuer: old.subject,
    notBefore: next.notBefore,
    notAfter: new Date(Math.min(next.notAfter.getTime(), old.notAfter.getTime())),
    publicKey: next.publicKey,
    signingKey: await importPkcs8(oldCa.privateKey),
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(await next.publicKey.export()),
      await x509.AuthorityKeyIdentifierExtension.create(old),
    ],
  });
  return cert.toString('pem') + '\n';
}
