import { describe, expect, it } from 'vitest';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { createClusterCa, crossCertificate, issueClientCertificate, issueInstanceCertificate, issueRevocableClientCertificate, serialFrom } from './cluster-ca';

describe('cluster CA', () => {
  it('makes a CA that signs instance certificates naming the node address and the endpoint host', async () => {
    const ca = await createClusterCa('orders');
    const caCert = new X509Certificate(ca.certificate);
    expect(caCert.ca).toBe(true);
    expect(caCert.subject).toContain('Strata cluster CA orders');
    expect(caCert.verify(caCert.publicKey)).toBe(true);

    const inst = await issueInstanceCertificate(ca, ['127.0.1.2', 'redis.example.test', '127.0.1.2']);
    const cert = new X509Certificate(inst.certificate);
    expect(cert.ca).toBe(false);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.subjectAltName).toBe('IP Address:127.0.1.2, DNS:redis.example.test');
    expect(cert.checkIP('127.0.1.2')).toBe('127.0.1.2');
    expect(cert.checkIP('127.0.1.3')).toBeUndefined();
    expect(cert.checkHost('redis.example.test')).toBe('redis.example.test');
    expect(cert.publicKey.equals(createPrivateKey(inst.privateKey))).toBe(false);
    expect(createPrivateKey(inst.privateKey).asymmetricKeyType).toBe('ec');
    expect(cert.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
  });

  it('is signed by its own CA only', async () => {
    const [a, b] = await Promise.all([createClusterCa('a'), createClusterCa('b')]);
    const cert = new X509Certificate((await issueInstanceCertificate(a, ['10.0.0.1'])).certificate);
    expect(cert.verify(new X509Certificate(b.certificate).publicKey)).toBe(false);
  });

  it('issues certificates valid for the renewal policy\'s validity, never past the CA', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const ca = await createClusterCa('v', now);
    const DAY = 86_400_000;
    const notAfter = async (validityMs?: number) =>
      Date.parse(new X509Certificate((await issueInstanceCertificate(ca, ['10.0.0.1'], { now, validityMs })).certificate).validTo);
    expect(await notAfter()).toBe(now.getTime() + 397 * DAY);
    expect(await notAfter(800 * DAY)).toBe(now.getTime() + 800 * DAY);
    expect(await notAfter(5000 * DAY)).toBe(Date.parse(new X509Certificate(ca.certificate).validTo));
  });

  it('refuses a certificate without a host', async () => {
    await expect(issueInstanceCertificate(await createClusterCa('x'), [])).rejects.toThrow(/at least one host/);
  });

  it('issues client certificates: client use only, named, signed by the CA, valid as asked but never past the CA', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const ca = await createClusterCa('m', now);
    const caCert = new X509Certificate(ca.certificate);
    const issued = await issueClientCertificate(ca, 'billing-app', { validityMs: 30 * 86_400_000, now });
    const cert = new X509Certificate(issued.certificate);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subject).toContain('CN=billing-app');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.subjectAltName).toBeUndefined();
    expect(issued.serialNumber).toBe(cert.serialNumber);
    expect(Date.parse(cert.validTo)).toBe(now.getTime() + 30 * 86_400_000);
    expect(issued.expiresAt.getTime()).toBe(Date.parse(cert.validTo));
    // The key goes with the certificate.
    expect(createPublicKey(createPrivateKey(issued.privateKey)).equals(cert.publicKey)).toBe(true);
    const long = await issueClientCertificate(ca, 'x', { validityMs: 20 * 365 * 86_400_000, now });
    expect(long.expiresAt.getTime()).toBe(Date.parse(caCert.validTo));
  });

  it('issues revocable client certificates: each signed by a one-off issuer of its own (not the CA), which signs end certificates only', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const ca = await createClusterCa('r', now);
    const caCert = new X509Certificate(ca.certificate);
    const a = await issueRevocableClientCertificate(ca, 'orders', { validityMs: 30 * 86_400_000, now });
    const b = await issueRevocableClientCertificate(ca, 'orders', { validityMs: 30 * 86_400_000, now });
    const cert = new X509Certificate(a.certificate);
    const issuer = new X509Certificate(a.issuerCertificate);
    expect(cert.checkIssued(issuer)).toBe(true);
    expect(cert.verify(issuer.publicKey)).toBe(true);
    expect(cert.checkIssued(caCert)).toBe(false);
    expect(cert.checkIssued(new X509Certificate(b.issuerCertificate))).toBe(false);
    expect(issuer.ca).toBe(true);
    expect(issuer.checkIssued(issuer)).toBe(true);
    expect(issuer.subject).toContain(a.serialNumber);
    expect(issuer.subject).not.toBe(new X509Certificate(b.issuerCertificate).subject);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.subject).toContain('CN=orders');
    expect(a.serialNumber).toBe(cert.serialNumber);
    expect(createPublicKey(createPrivateKey(a.privateKey)).equals(cert.publicKey)).toBe(true);
    // The issuer's key is not handed out: one private key, the certificate's.
    expect(JSON.stringify(a).match(/BEGIN PRIVATE KEY/g)).toHaveLength(1);
    expect((await issueRevocableClientCertificate(ca, 'x', { validityMs: 20 * 365 * 86_400_000, now })).expiresAt.getTime()).toBe(Date.parse(caCert.validTo));
  });

  it('cross-certifies a new CA with the old one: same name and key as the new CA, signed by the old, a CA itself', async () => {
    const old = await createClusterCa('rot');
    const next = await createClusterCa('rot');
    const cross = new X509Certificate(await crossCertificate(next, old));
    const nextCert = new X509Certificate(next.certificate);
    const oldCert = new X509Certificate(old.certificate);
    expect(cross.subject).toBe(nextCert.subject);
    expect(cross.publicKey.equals(nextCert.publicKey)).toBe(true);
    expect(cross.checkIssued(oldCert)).toBe(true);
    expect(cross.verify(oldCert.publicKey)).toBe(true);
    expect(cross.ca).toBe(true);
    // A certificate the new CA signs chains to the old CA through it.
    const leaf = new X509Certificate((await issueInstanceCertificate(next, ['127.0.0.1'])).certificate);
    expect(leaf.checkIssued(cross)).toBe(true);
    expect(leaf.verify(cross.publicKey)).toBe(true);
  });

  it('serial numbers are positive and never start with a zero byte, so the stored hex is what tools print for the certificate', () => {
    // A zero first byte (1 in 128 random serials) would be dropped by Node's X509Certificate and openssl.
    expect(serialFrom(Buffer.from('00b8bd08d7a16579e3d6bbf09493bd6c', 'hex'))).toBe('01b8bd08d7a16579e3d6bbf09493bd6c');
    expect(serialFrom(Buffer.from('ffb8bd08d7a16579e3d6bbf09493bd6c', 'hex'))).toBe('7fb8bd08d7a16579e3d6bbf09493bd6c');
    for (let first = 0; first < 256; first++) {
      const hex = serialFrom(Buffer.from([first, ...Array(15).fill(0xab)]));
      expect(hex).toHaveLength(32);
      expect(Number.parseInt(hex.slice(0, 2), 16)).toBeGreaterThan(0);
      expect(Number.parseInt(hex.slice(0, 2), 16)).toBeLessThan(0x80);
    }
  });
});
