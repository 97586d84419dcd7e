/**
 * Alert rules, the alerts they raise (firing, then resolved) and the
 * notification channels (webhook, e-mail) that hear about them.
 */
import { z, Id, Timestamp, safeString } from './common';

/**
 * What a rule watches. Gauges compare the cluster's current value with the
 * threshold; `cluster_degraded` is 1 while the cluster's phase is degraded;
 * events (`failover`, `node_down`, `backup_failed`) count happenings in the
 * last `forSeconds`.
 */
export const ALERT_METRICS = {
  memory_used_percent: { kind: 'gauge', unit: '%', label: 'Memory used', help: 'used_memory / maxmemory of the fullest instance, in percent' },
  ops_per_sec: { kind: 'gauge', unit: 'ops/s', label: 'Operations per second', help: 'reads + writes per second, the whole cluster' },
  latency_p99_ms: { kind: 'gauge', unit: 'ms', label: 'Latency p99', help: 'server-side p99 of the slowest instance, in milliseconds' },
  replication_lag_bytes: { kind: 'gauge', unit: 'bytes', label: 'Replication lag', help: 'bytes the furthest replica is behind its primary' },
  connected_clients: { kind: 'gauge', unit: 'clients', label: 'Connected clients', help: 'client connections, all instances' },
  evictions: { kind: 'gauge', unit: 'keys/s', label: 'Evictions', help: 'keys evicted per second by the maxmemory policy, all instances' },
  cluster_degraded: { kind: 'state', unit: '', label: 'Cluster degraded', help: 'the cluster is degraded (fires once it has been for forSeconds)' },
  failover: { kind: 'event', unit: 'events', label: 'Failover', help: 'failovers in the last forSeconds' },
  node_down: { kind: 'event', unit: 'events', label: 'Node down', help: 'nodes of the cluster declared down in the last forSeconds' },
  backup_failed: { kind: 'event', unit: 'events', label: 'Backup failed', help: 'failed backups in the last forSeconds' },
} as const satisfies Record<string, { kind: 'gauge' | 'state' | 'event'; unit: string; label: string; help: string }>;
export type AlertMetric = keyof typeof ALERT_METRICS;
export const AlertMetric = z.enum(Object.keys(ALERT_METRICS) as [AlertMetric, ...AlertMetric[]]).describe(
  'memory_used_percent (%), ops_per_sec, latency_p99_ms (server-side, ms), replication_lag_bytes (bytes), connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed',
);

const channelIds = z.array(Id).max(10).describe('notification channels told when an alert fires and resolves');

export const CreateAlertRuleRequest = z.strictObject({
  name: safeString().min(1).max(100).optional().describe('default: the metric and threshold in words'),
  metric: AlertMetric,
  threshold: z.number().min(0, 'must be 0 or more').max(1e15).default(0).describe(
    'fires while the value is above it (for events: more than this many in the window); default 0',
  ),
  forSeconds: z.number().int().min(1, 'must be at least 1 second').max(86_400).describe(
    'how long the value must stay above the threshold before the alert fires (events: the window counted)',
  ),
  channelIds: channelIds.default([]),
  enabled: z.boolean().default(true),
}).openapi('CreateAlertRuleRequest');
export type CreateAlertRuleRequest = z.infer<typeof CreateAlertRuleRequest>;

export const UpdateAlertRuleRequest = z.strictObject({
  name: safeString().min(1).max(100).optional(),
  threshold: z.number().min(0, 'must be 0 or more').max(1e15).optional(),
  forSeconds: z.number().int().min(1, 'must be at least 1 second').max(86_400).optional(),
  channelIds: channelIds.optional(),
  enabled: z.boolean().optional(),
}).openapi('UpdateAlertRuleRequest');
export type UpdateAlertRuleRequest = z.infer<typeof UpdateAlertRuleRequest>;

export const AlertState = z.enum(['firing', 'resolved']);
export type AlertState = z.infer<typeof AlertState>;

export const AlertRule = z.object({
  id: Id,
  clusterId: Id.nullable().describe('null: an organization rule, evaluated for each of its clusters'),
  name: z.string(),
  metric: AlertMetric,
  threshold: z.number(),
  forSeconds: z.number().int(),
  channelIds: z.array(Id),
  enabled: z.boolean(),
  firing: z.number().int().describe('alerts of this rule firing now'),
  createdAt: Timestamp,
}).openapi('AlertRule');
export type AlertRule = z.infer<typeof AlertRule>;

export const AlertRuleList = z.object({ items: z.array(AlertRule) }).openapi('AlertRuleList');
export type AlertRuleList = z.infer<typeof AlertRuleList>;

export const Alert = z.object({
  id: Id,
  ruleId: Id,
  ruleName: z.string(),
  metric: AlertMetric,
  threshold: z.number(),
  forSeconds: z.number().int(),
  clusterId: Id,
  clusterName: z.string(),
  state: AlertState,
  value: z.number().describe('the value when it fired'),
  unit: z.string(),
  startedAt: Timestamp.describe('when it fired'),
  resolvedAt: Timestamp.nullable(),
}).openapi('Alert');
export type Alert = z.infer<typeof Alert>;

export const AlertList = z.object({ items: z.array(Alert) }).openapi('AlertList');
export type AlertList = z.infer<typeof AlertList>;

export const AlertQuery = z.strictObject({
  state: AlertState.optional(),
  clusterId: Id.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
}).openapi('AlertQuery');
export type AlertQuery = z.infer<typeof AlertQuery>;

const httpUrl = safeString().max(2000).refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}, { message: 'must be an http:// or https:// URL' });

const email = z.string().max(254).regex(/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.?[^\s@<>(),;:"]*$/, 'must be an e-mail address');

export const CreateNotificationChannelRequest = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('webhook'),
    name: safeString().min(1).max(100).optional(),
    url: httpUrl.describe('http(s) URL that receives a POST per notification'),
    secret: safeString().min(8, 'must be at least 8 characters').max(256).describe('HMAC-SHA256 key for X-Strata-Signature (write-only)'),
    format: z.enum(['json', 'slack']).default('json').describe('slack: a Slack incoming-webhook body ({"text": ...})'),
  }),
  z.strictObject({
    type: z.literal('email'),
    name: safeString().min(1).max(100).optional(),
    to: z.array(email).min(1).max(20).describe('recipients'),
  }),
]).openapi('CreateNotificationChannelRequest');
export type CreateNotificationChannelRequest = z.infer<typeof CreateNotificationChannelRequest>;

export const NotificationChannel = z.object({
  id: Id,
  type: z.enum(['webhook', 'email']),
  name: z.string(),
  url: z.string().nullable(),
  format: z.enum(['json', 'slack']).nullable(),
  to: z.array(z.string()).nullable(),
  hasSecret: z.boolean().describe('the secret itself is never shown'),
  createdAt: Timestamp,
}).openapi('NotificationChannel');
export type NotificationChannel = z.infer<typeof NotificationChannel>;

export const NotificationChannelList = z.object({ items: z.array(NotificationChannel) }).openapi('NotificationChannelList');
export type NotificationChannelList = z.infer<typeof NotificationChannelList>;

export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: Timestamp,
  statusCode: z.number().int().nullable().describe('HTTP status (webhooks), 250 for an accepted e-mail; null when no answer'),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const Delivery = z.object({
  id: Id,
  channelId: Id,
  alertId: Id.nullable().describe('null: a test'),
  event: z.enum(['firing', 'resolved', 'test']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(DeliveryAttempt),
  createdAt: Timestamp,
  deliveredAt: Timestamp.nullable(),
}).openapi('NotificationDelivery');
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryList = z.object({ items: z.array(Delivery) }).openapi('NotificationDeliveryList');
export type DeliveryList = z.infer<typeof DeliveryList>;

/** The Prometheus rule file Strata exports (served as YAML; this is its structure). */
export const PrometheusRuleFile = z.object({
  groups: z.array(z.object({
    name: z.string(),
    rules: z.array(z.object({
      alert: z.string(),
      expr: z.string().describe('PromQL over the series of /metrics'),
      for: z.string().describe('e.g. 60s'),
      labels: z.object({ strata_rule_id: z.string(), metric: AlertMetric }),
      annotations: z.object({ summary: z.string() }),
    })),
  })),
}).openapi('PrometheusRuleFile');

/** The JSON a webhook receives (format json). */
export const AlertNotification = z.object({
  version: z.literal(1),
  event: z.enum(['firing', 'resolved', 'test']),
  deliveryId: Id,
  sentAt: Timestamp,
  alert: Alert.nullable(),
  text: z.string().describe('one line for people'),
}).openapi('AlertNotification');
export type AlertNotification = z.infer<typeof AlertNotification>;
