import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Alert } from '@strata/api';
import { alertText, emailMessage, notification, sign, webhookBody } from './notification-payload';
import { backoffMs, DEFAULT_DISPATCH } from './notification-dispatcher';

const alert: Alert = {
  id: '11111111-1111-4111-8111-111111111111', ruleId: '22222222-2222-4222-8222-222222222222', ruleName: 'memory-high', metric: 'memory_used_percent',
  threshold: 80, forSeconds: 30, clusterId: '33333333-3333-4333-8333-333333333333', clusterName: 'orders-cache', state: 'firing', value: 92.456,
  unit: '%', startedAt: '2026-11-26T10:00:00.000Z', resolvedAt: null,
};

describe('notification payload', () => {
  it('signs the exact body bytes: lowercase hex HMAC-SHA256 with the secret, no prefix', () => {
    const body = webhookBody(notification('44444444-4444-4444-8444-444444444444', 'firing', alert, new Date(0)), 'json');
    expect(sign('s3cret', body)).toBe(createHmac('sha256', 's3cret').update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(sign('s3cret', body)).toMatch(/^[0-9a-f]{64}$/);
    expect(sign('other', body)).not.toBe(sign('s3cret', body));
  });
  it('says what fired in one line, in JSON, for Slack and by e-mail', () => {
    expect(alertText('firing', alert)).toBe('FIRING: memory-high on orders-cache: Memory used 92.5 % > 80 % for 30 s');
    expect(alertText('resolved', alert)).toBe('RESOLVED: memory-high on orders-cache');
    expect(alertText('firing', { ...alert, metric: 'failover', threshold: 0, value: 2, unit: 'events' })).toBe('FIRING: memory-high on orders-cache: 2 failover event(s) in 30 s (more than 0)');
    const n = notification('44444444-4444-4444-8444-444444444444', 'firing', alert, new Date(0));
    expect(JSON.parse(webhookBody(n, 'json'))).toEqual({ version: 1, event: 'firing', deliveryId: n.deliveryId, sentAt: '1970-01-01T00:00:00.000Z', alert, text: n.text });
    expect(JSON.parse(webhookBody(n, 'slack'))).toEqual({ text: n.text });
    expect(notification('44444444-4444-4444-8444-444444444444', 'test', null, new Date(0)).text).toBe('TEST: a test notification from Strata');
    const mail = emailMessage(n);
    expect(mail.subject).toBe(`[Strata] ${n.text}`);
    expect(mail.text).toContain('Cluster: orders-cache (33333333-3333-4333-8333-333333333333)');
  });
  it('backs off 1 s, 2 s, 4 s ... up to the maximum', () => {
    expect([1, 2, 3, 4, 10].map((a) => backoffMs(DEFAULT_DISPATCH, a))).toEqual([1000, 2000, 4000, 8000, 60_000]);
  });
});
