import { describe, expect, it } from 'vitest';
import { clientTrustBundle, clientTrustDigest, planTrustSync } from './client-trust';

describe('client trust: what a TLS cluster\'s instances trust for clients', () => {
  it('is the CA, then the issuers of live client certificates, one PEM after another', () => {
    expect(clientTrustBundle('CA\n', [])).toBe('CA\n');
    expect(clientTrustBundle('CA', ['I1', 'I2\n'])).toBe('CA\nI1\nI2\n');
    expect(clientTrustDigest('CA\n')).toMatch(/^[0-9a-f]{64}$/);
    expect(clientTrustDigest(clientTrustBundle('CA\n', ['I1\n']))).not.toBe(clientTrustDigest('CA\n'));
  });

  it.each([
    ['loaded as desired', 'd1', true, []],
    ['loaded another file (a certificate issued or revoked since)', 'd0', true, ['a']],
    ['not known yet', null, true, ['a']],
    ['stopped (it loads the file written at its start)', 'd0', false, []],
  ] as const)('an instance that %s', (_what, trustDigest, running, expected) => {
    const actions = planTrustSync({ desiredDigest: 'd1', instances: [{ id: 'a', running, trustDigest }] });
    expect(actions.map((a) => a.instanceId)).toEqual(expected);
    for (const a of actions) expect(a).toEqual({ kind: 'sync-trust', instanceId: 'a', digest: 'd1' });
  });
});
