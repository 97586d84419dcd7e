import { describe, expect, it } from 'vitest';
import { desiredClientTrust, engineCredentials, trustedCas, type ClusterSecrets } from './cluster-secrets';

const users = { customerUser: 'app', customerPassword: 'c'.repeat(16), internalUser: 'strata-internal', internalPassword: 'i'.repeat(16) };
const ca = { certificate: '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n', privateKey: '-----BEGIN PRIVATE KEY-----\nCA-KEY\n-----END PRIVATE KEY-----\n' };
const instance = { certificate: 'INSTANCE-CERT', privateKey: 'INSTANCE-KEY' };
const client = { certificate: 'CLIENT-CERT', privateKey: 'CLIENT-KEY' };

describe('engineCredentials: what an agent gets with a task', () => {
  it('a plain cluster: the users only', () => {
    expect(engineCredentials(users)).toEqual(users);
  });

  it("a TLS cluster: the CA's certificate and, for a task that runs an instance, its certificate; never the CA's key", () => {
    const secrets: ClusterSecrets = { ...users, tlsCa: ca };
    expect(engineCredentials(secrets)).toEqual({ ...users, tls: { caCertificate: ca.certificate, trustedCertificates: ca.certificate } });
    const withCert = engineCredentials(secrets, { instance, client });
    expect(withCert).toEqual({ ...users, tls: { caCertificate: ca.certificate, trustedCertificates: ca.certificate, instanceCertificate: instance, clientCertificate: client } });
    expect(JSON.stringify(withCert)).not.toContain('CA-KEY');
    // The instances trust the CA and, after it, the issuers of live client certificates.
    expect(engineCredentials(secrets, { trustedIssuers: ['ISSUER-1\n', 'ISSUER-2\n'] }).tls!.trustedCertificates).toBe(`${ca.certificate}ISSUER-1\nISSUER-2\n`);
    // A plain cluster gets no certificate even when one is handed in.
    expect(engineCredentials(users, { client })).toEqual(users);
  });

  it('during a CA rotation: both CAs trusted and given to clients, the cross-certificate after every certificate the new CA signs', () => {
    const secrets: ClusterSecrets = { ...users, tlsCa: ca, tlsCaRotation: { previous: 'OLD-CA\n', cross: 'CROSS\n' } };
    expect(trustedCas(secrets)).toBe(`${ca.certificate}OLD-CA\n`);
    expect(desiredClientTrust(secrets, ['ISSUER\n'])).toBe(`${ca.certificate}OLD-CA\nISSUER\n`);
    const creds = engineCredentials(secrets, { instance: { certificate: 'I\n', privateKey: 'K' }, client: { certificate: 'C\n', privateKey: 'K2' } });
    expect(creds.tls).toMatchObject({ caCertificate: `${ca.certificate}OLD-CA\n`, instanceCertificate: { certificate: 'I\nCROSS\n' }, clientCertificate: { certificate: 'C\nCROSS\n' } });
    // Retired: the CA alone again.
    expect(trustedCas({ ...users, tlsCa: ca })).toBe(ca.certificate);
    expect(trustedCas(users)).toBeNull();
  });
});

