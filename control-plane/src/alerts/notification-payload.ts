/**
 * What a channel receives (pure code): the JSON body, its signature, the Slack
 * body and the e-mail's subject and text.
 *
 * Signature: `X-Strata-Signature` is the lowercase hex HMAC-SHA256 of the exact
 * request body bytes, keyed with the channel's secret (UTF-8), no prefix.
 */
import { createHmac } from 'node:crypto';
import { ALERT_METRICS, type Alert, type AlertNotification } from '@strata/api';

export const SIGNATURE_HEADER = 'X-Strata-Signature';

export function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) < 10 ? 2 : 1));

/** "FIRING: memory-high on orders-cache: Memory used 92.5 % > 80 % for 30 s". */
export function alertText(event: 'firing' | 'resolved', a: Alert): string {
  const m = ALERT_METRICS[a.metric];
  const unit = m.unit ? ` ${m.unit}` : '';
  const cond = m.kind === 'event'
    ? `${fmt(a.value)} ${m.label.toLowerCase()} event(s) in ${a.forSeconds} s (more than ${fmt(a.threshold)})`
    : m.kind === 'state' ? `degraded for ${a.forSeconds} s`
      : `${m.label} ${fmt(a.value)}${unit} > ${fmt(a.threshold)}${unit} for ${a.forSeconds} s`;
  return event === 'firing'
    ? `FIRING: ${a.ruleName} on ${a.clusterName}: ${cond}`
    : `RESOLVED: ${a.ruleName} on ${a.clusterName}`;
}

export function notification(deliveryId: string, event: 'firing' | 'resolved' | 'test', alert: Alert | null, sentAt: Date): AlertNotification {
  const text = alert && event !== 'test' ? alertText(event, alert) : 'TEST: a test notification from Strata';
  return { version: 1, event, deliveryId, sentAt: sentAt.toISOString(), alert, text };
}

/** The request body for a webhook of this format. */
export function webhookBody(n: AlertNotification, format: 'json' | 'slack'): string {
  return format === 'slack' ? JSON.stringify({ text: n.text }) : JSON.stringify(n);
}

export function emailMessage(n: AlertNotification): { subject: string; text: string } {
  const a = n.alert;
  const lines = [n.text, ''];
  if (a) {
    lines.push(`Cluster: ${a.clusterName} (${a.clusterId})`, `Rule: ${a.ruleName} (${a.metric}, threshold ${a.threshold}, for ${a.forSeconds} s)`);
    lines.push(`Started: ${a.startedAt}`);
    if (a.resolvedAt) lines.push(`Resolved: ${a.resolvedAt}`);
  }
  lines.push('', `Delivery ${n.deliveryId}, sent ${n.sentAt}`);
  return { subject: `[Strata] ${n.text}`.slice(0, 200), text: lines.join('\n') };
}
