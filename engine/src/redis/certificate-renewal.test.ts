import { describe, expect, it } from 'vitest';
import { earliestCertificateExpiry, instanceCertValidityMs, INSTANCE_CERT_VALIDITY_DAYS, planCertificateRenewal } from './certificate-renewal';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 1);
const ca = now + 3000 * DAY;

describe('planCertificateRenewal', () => {
  it.each([
    ['far from expiry', { running: true, certificateExpiresAt: now + 200 * DAY }, false],
    ['inside the window', { running: true, certificateExpiresAt: now + 29 * DAY }, true],
    ['at the window edge', { running: true, certificateExpiresAt: now + 30 * DAY }, true],
    ['already expired', { running: true, certificateExpiresAt: now - DAY }, true],
    ['not running (gets a certificate when it starts)', { running: false, certificateExpiresAt: now + DAY }, false],
    ['expiry not reported yet', { running: true, certificateExpiresAt: null }, false],
  ] as const)('%s', (_, inst, renew) => {
    const actions = planCertificateRenewal({ now, renewBeforeMs: 30 * DAY, caExpiresAt: ca, instances: [{ id: 'i', ...inst }] });
    expect(actions).toEqual(renew ? [{ kind: 'renew-certificate', instanceId: 'i', expiresAt: inst.certificateExpiresAt }] : []);
  });

  it('does not renew when the CA expires first: a fresh certificate could not outlive the one served', () => {
    const caSoon = now + 10 * DAY;
    expect(planCertificateRenewal({ now, renewBeforeMs: 30 * DAY, caExpiresAt: caSoon, instances: [{ id: 'i', running: true, certificateExpiresAt: caSoon }] })).toEqual([]);
  });

  it('a renewed certificate is never due again at once, whatever the window', () => {
    for (const windowDays of [1, 30, 396, 398, 1000]) {
      const renewBeforeMs = windowDays * DAY;
      const validity = instanceCertValidityMs(renewBeforeMs);
      expect(validity).toBeGreaterThanOrEqual(INSTANCE_CERT_VALIDITY_DAYS * DAY);
      const renewed = { id: 'i', running: true, certificateExpiresAt: now + validity };
      expect(planCertificateRenewal({ now, renewBeforeMs, caExpiresAt: now + 10_000 * DAY, instances: [renewed] })).toEqual([]);
    }
  });
});

describe('earliestCertificateExpiry', () => {
  it('is the smallest known expiry, or null', () => {
    expect(earliestCertificateExpiry([{ certificateExpiresAt: 5 }, { certificateExpiresAt: null }, { certificateExpiresAt: 3 }])).toBe(3);
    expect(earliestCertificateExpiry([{ certificateExpiresAt: null }])).toBeNull();
  });
});
