import { describe, expect, it } from 'vitest';
import { internalLogin } from './admin-connection';

const users = { customerUser: 'app', customerPassword: 'c'.repeat(16), internalUser: 'strata', internalPassword: 'i'.repeat(16) };
const pem = (name: string) => ({ certificate: `${name}-CERT`, privateKey: `${name}-KEY` });

describe('internalLogin: how Strata connects to an instance', () => {
  it('plain text without TLS', () => {
    expect(internalLogin(users)).toEqual({ username: 'strata', password: 'i'.repeat(16) });
  });

  it('TLS verifying the CA, presenting the client certificate the control plane issued', () => {
    const login = internalLogin({ ...users, tls: { caCertificate: 'CA', instanceCertificate: pem('INSTANCE'), clientCertificate: pem('CLIENT') } });
    expect(login.tls).toEqual({ ca: 'CA', cert: 'CLIENT-CERT', key: 'CLIENT-KEY' });
  });

  it("falls back to the instance's certificate (valid for client use) for a record kept without a client certificate", () => {
    expect(internalLogin({ ...users, tls: { caCertificate: 'CA', instanceCertificate: pem('INSTANCE') } }).tls).toEqual({ ca: 'CA', cert: 'INSTANCE-CERT', key: 'INSTANCE-KEY' });
    expect(internalLogin({ ...users, tls: { caCertificate: 'CA' } }).tls).toEqual({ ca: 'CA' });
  });
});
