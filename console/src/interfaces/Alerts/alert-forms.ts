/** The alert rule and channel forms: what the user typed -> a request, or errors at the fields (pure). */
import { ALERT_METRICS, type AlertMetric, type CreateAlertRuleRequest, type CreateNotificationChannelRequest } from '@strata/api';

export interface RuleForm {
  /** '' = every cluster of the organization. */
  clusterId: string;
  metric: AlertMetric;
  threshold: string;
  forSeconds: string;
  channelIds: string[];
}

export type FormErrors<F> = Partial<Record<keyof F | string, string>>;

export function validateRuleForm(f: RuleForm): { request?: { clusterId: string | null; body: CreateAlertRuleRequest }; errors: FormErrors<RuleForm> } {
  const errors: FormErrors<RuleForm> = {};
  const kind = ALERT_METRICS[f.metric].kind;
  const threshold = f.threshold.trim() === '' && kind !== 'gauge' ? 0 : Number(f.threshold);
  if (!Number.isFinite(threshold) || f.threshold.trim() === '' && kind === 'gauge') errors.threshold = 'Enter a number.';
  else if (threshold < 0) errors.threshold = 'Must be 0 or more.';
  const forSeconds = Number(f.forSeconds);
  if (!Number.isInteger(forSeconds) || forSeconds < 1) errors.forSeconds = 'Whole seconds, at least 1.';
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    request: {
      clusterId: f.clusterId || null,
      body: { metric: f.metric, threshold, forSeconds, channelIds: f.channelIds, enabled: true },
    },
  };
}

export interface ChannelForm {
  type: 'webhook' | 'email';
  name: string;
  url: string;
  secret: string;
  format: 'json' | 'slack';
  to: string;
}

export function validateChannelForm(f: ChannelForm): { request?: CreateNotificationChannelRequest; errors: FormErrors<ChannelForm> } {
  const errors: FormErrors<ChannelForm> = {};
  const name = f.name.trim() || undefined;
  if (f.type === 'webhook') {
    if (!/^https?:\/\/[^\s/]+/i.test(f.url.trim())) errors.url = 'An http:// or https:// URL.';
    if (f.secret.length < 8) errors.secret = 'At least 8 characters.';
    if (Object.keys(errors).length) return { errors };
    return { errors, request: { type: 'webhook', name, url: f.url.trim(), secret: f.secret, format: f.format } };
  }
  const to = f.to.split(/[\s,;]+/).filter(Boolean);
  if (!to.length || to.some((a) => !/^[^\s@]+@[^\s@]+$/.test(a))) errors.to = 'One or more e-mail addresses, separated by commas.';
  if (Object.keys(errors).length) return { errors };
  return { errors, request: { type: 'email', name, to } };
}

/** "Memory used > 80 % for 30 s". */
export function ruleCondition(r: { metric: AlertMetric; threshold: number; forSeconds: number }): string {
  const m = ALERT_METRICS[r.metric];
  if (m.kind === 'event') return `more than ${r.threshold} in ${r.forSeconds} s`;
  if (m.kind === 'state') return `for ${r.forSeconds} s`;
  return `> ${r.threshold}${m.unit ? ` ${m.unit}` : ''} for ${r.forSeconds} s`;
}
