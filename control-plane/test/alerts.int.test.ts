/**
 * Alerts on the real stack (PostgreSQL, an agent, redis-server): a memory rule
 * fires within its duration after a load fills a cluster and resolves after a
 * FLUSHALL, delivered to a local webhook receiver (signature checked), a
 * Slack-format webhook and a real local SMTP server; webhooks that answer 500
 * or never answer are retried, then marked failed, while the others deliver.
 * Nonsense is refused naming the field; secrets are write-only; the
 * Prometheus export of the rules passes `promtool check rules`. Event rules
 * (failover, backup_failed), one of them the organization's, fire on rows
 * in PostgreSQL as the reconciler and the backup coordinator write them and
 * resolve when those leave the window; a switchover is no failover.
 */
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Alert, AlertNotification, AlertRule, DeliveryList, NotificationChannel, Problem } from '@strata/api';
import type { Stack } from '@strata/local';
import { startSmtpReceiver, startWebhookReceiver, type SmtpReceiver, type WebhookReceiver } from '@strata/local/notification-receivers';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let hooks: WebhookReceiver;
let smtp: SmtpReceiver;

const SECRET = 'alert-test-secret-1';
const MAX_ATTEMPTS = 3;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  ({ stack, api, cleanup } = await testStack('127.0.56', {
    nodes: 1,
    extraEnv: {
      STRATA_SMTP_URL: smtp.url, STRATA_ALERT_EVAL_MS: '250', STRATA_NOTIFY_TIMEOUT_MS: '400', STRATA_NOTIFY_RETRY_BASE_MS: '100', STRATA_NOTIFY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    },
  }));
});
afterAll(async () => {
  await cleanup?.();
  await hooks?.close();
  await smtp?.close();
});

const field = (r: { status: number; body: unknown }) => {
  const p = r.body as Problem;
  return `${r.status} ${p.code} ${(p.errors ?? []).map((e) => e.field).join(',')}`;
};

describe('alerts and notifications', () => {
  it('refuses nonsense naming the field, and never shows a secret', async () => {
    const c = await api.createCluster({ name: 'refusals', shards: 1, replicasPerShard: 0, memoryMbPerShard: 16 });
    const id = c.body.cluster.id;
    const rule = (b: object) => api.call('POST', `/v1/clusters/${id}/alert-rules`, { metric: 'memory_used_percent', threshold: 80, forSeconds: 5, channelIds: [], ...b });
    expect(field(await rule({ threshold: -1 }))).toBe('400 validation_failed threshold');
    expect(field(await rule({ metric: 'disk_iops' }))).toBe('400 validation_failed metric');
    expect(field(await rule({ forSeconds: 0 }))).toBe('400 validation_failed forSeconds');
    expect(field(await rule({ channelIds: [crypto.randomUUID()] }))).toBe('422 validation_failed channelIds.0');
    const channel = (b: object) => api.call('POST', '/v1/notification-channels', { type: 'webhook', url: `${hooks.url}/ok`, secret: SECRET, ...b });
    expect(field(await channel({ url: 'ftp://example.com/x' }))).toBe('400 validation_failed url');
    expect(field(await channel({ url: 'javascript:alert(1)' }))).toBe('400 validation_failed url');
    expect(field(await channel({ secret: 'short' }))).toBe('400 validation_failed secret');
    expect(field(await channel({ type: 'pager' }))).toBe('400 validation_failed type');
    expect(field(await api.call('POST', '/v1/notification-channels', { type: 'email', to: ['not-an-address'] }))).toBe('400 validation_failed to.0');
    const ok = await channel({ name: 'secret-check' });
    expect(ok.status).toBe(201);
    expect(JSON.stringify(ok.body)).not.toContain(SECRET);
    expect((ok.body as NotificationChannel).hasSecret).toBe(true);
    const list = await api.call<{ items: NotificationChannel[] }>('GET', '/v1/notification-channels');
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    expect((await api.call('DELETE', `/v1/notification-channels/${(ok.body as NotificationChannel).id}`)).status).toBe(204);
    await api.deleteCluster(id);
  });

  it('a memory rule fires within its duration after a load and resolves after FLUSHALL, on every channel; dead webhooks are retried then failed', async () => {
    const created = await api.createCluster({ name: 'alerting', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 });
    expect(created.status).toBe(202);
    const clusterId = created.body.cluster.id;
    const mk = async (b: object) => {
      const r = await api.call<NotificationChannel>('POST', '/v1/notification-channels', b);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const json = await mk({ type: 'webhook', name: 'ok-json', url: `${hooks.url}/ok-json`, secret: SECRET });
    const slack = await mk({ type: 'webhook', name: 'ok-slack', url: `${hooks.url}/ok-slack`, secret: SECRET, format: 'slack' });
    const mail = await mk({ type: 'email', name: 'on-call', to: ['oncall@example.test'] });
    const failing = await mk({ type: 'webhook', name: 'answers-500', url: `${hooks.url}/fail`, secret: SECRET });
    const hanging = await mk({ type: 'webhook', name: 'never-answers', url: `${hooks.url}/hang`, secret: SECRET });
    const FOR = 3;
    const rule = await api.call<AlertRule>('POST', `/v1/clusters/${clusterId}/alert-rules`, {
      metric: 'memory_used_percent', threshold: 25, forSeconds: FOR, channelIds: [json.id, slack.id, mail.id, failing.id, hanging.id],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect(rule.headers.get('location')).toBe(`/v1/alert-rules/${rule.body.id}`);

    // The export, checked by the real promtool.
    const yaml = await fetch(`${stack.url}/v1/clusters/${clusterId}/alert-rules/prometheus`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-alert-rules-'));
    try {
      writeFileSync(path.join(dir, 'rules.yml'), await yaml.text());
      expect(execFileSync('promtool', ['check', 'rules', path.join(dir, 'rules.yml')], { encoding: 'utf8' })).toContain('SUCCESS: 1 rules found');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    await api.waitForPhase(clusterId, 'ready');
    const conn = await api.connection(clusterId);
    const redis = appClient(conn.body.uri);
    try {
      // ~13 MB of values into a 32 MB instance: well over 25 %.
      const loadStart = Date.now();
      const value = 'x'.repeat(100_000);
      for (let i = 0; i < 130; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => redis.set(`fill:${i + j}`, value)));
      const loadEnd = Date.now();
      const firing = await api.pollUntil(async () => hooks.received.find((r) => r.path === '/ok-json' && JSON.parse(r.body).event === 'firing'), 20_000, () => 'no firing webhook');
      // Not before its duration, and within it plus 2 s of sampling, evaluation and delivery (+2 s for a busy machine).
      expect(firing.at - loadStart).toBeGreaterThanOrEqual(FOR * 1000);
      expect(firing.at - loadEnd).toBeLessThanOrEqual((FOR + 4) * 1000);
      const sig = createHmac('sha256', SECRET).update(firing.body).digest('hex');
      expect(firing.headers['x-strata-signature']).toBe(sig);
      expect(firing.headers['content-type']).toBe('application/json');
      const n = JSON.parse(firing.body) as AlertNotification;
      expect(n.alert).toMatchObject({ ruleId: rule.body.id, clusterId, clusterName: 'alerting', metric: 'memory_used_percent', state: 'firing', unit: '%' });
      expect(n.alert!.value).toBeGreaterThan(25);
      expect(firing.headers['x-strata-delivery']).toBe(n.deliveryId);
      const firingNow = await api.call<{ items: Alert[] }>('GET', `/v1/alerts?state=firing&clusterId=${clusterId}`);
      expect(firingNow.body.items.map((a) => a.ruleId)).toEqual([rule.body.id]);
      expect((await api.call<AlertRule>('GET', `/v1/alert-rules/${rule.body.id}`)).body.firing).toBe(1);

      await api.pollUntil(async () => hooks.received.find((r) => r.path === '/ok-slack'), 5000, () => 'no slack webhook');
      const slackBody = JSON.parse(hooks.received.find((r) => r.path === '/ok-slack')!.body) as { text: string };
      expect(slackBody.text).toMatch(/^FIRING: Memory used above 25 % on alerting: Memory used \d+(\.\d+)? % > 25 % for 3 s$/);
      const firstMail = await api.pollUntil(async () => smtp.mails.find((m) => m.raw.includes('FIRING')), 5000, () => 'no firing e-mail');
      expect(firstMail.to).toEqual(['oncall@example.test']);
      expect(firstMail.raw).toMatch(/^Subject: \[Strata\] FIRING: Memory used above 25 % on alerting/m);

      // FLUSHALL: resolved on every working channel.
      for (const node of redis.nodes('master')) await node.flushall();
      const resolved = await api.pollUntil(async () => hooks.received.find((r) => r.path === '/ok-json' && JSON.parse(r.body).event === 'resolved'), 15_000, () => 'no resolved webhook');
      expect(resolved.headers['x-strata-signature']).toBe(createHmac('sha256', SECRET).update(resolved.body).digest('hex'));
      expect((JSON.parse(resolved.body) as AlertNotification).alert).toMatchObject({ state: 'resolved', id: n.alert!.id });
      await api.pollUntil(async () => smtp.mails.find((m) => m.raw.includes('RESOLVED')), 5000, () => 'no resolved e-mail');
      const history = await api.call<{ items: Alert[] }>('GET', `/v1/alerts?clusterId=${clusterId}`);
      expect(history.body.items).toHaveLength(1);
      expect(history.body.items[0]).toMatchObject({ state: 'resolved', id: n.alert!.id });
      expect(history.body.items[0]!.resolvedAt).not.toBeNull();
    } finally {
      redis.disconnect();
    }

    // The dead webhooks: every attempt logged, then failed (firing and resolved alike).
    const log = async (id: string) => (await api.call<DeliveryList>('GET', `/v1/notification-channels/${id}/deliveries`)).body.items;
    const failed = await api.pollUntil(async () => {
      const a = await log(failing.id);
      const b = await log(hanging.id);
      return a.length === 2 && b.length === 2 && [...a, ...b].every((d) => d.status === 'failed') ? { a, b } : undefined;
    }, 30_000, () => 'dead webhooks not marked failed');
    for (const d of failed.a) expect(d.attempts.map((x) => [x.attempt, x.statusCode, x.error])).toEqual([[1, 500, 'HTTP 500'], [2, 500, 'HTTP 500'], [3, 500, 'HTTP 500']]);
    for (const d of failed.b) {
      expect(d.attempts.map((x) => [x.attempt, x.statusCode, x.error])).toEqual([[1, null, 'timed out'], [2, null, 'timed out'], [3, null, 'timed out']]);
      expect(d.attempts.every((x) => x.durationMs >= 350 && x.durationMs < 3000)).toBe(true);
    }
    expect(hooks.attempts.get('/fail')).toBe(2 * MAX_ATTEMPTS);
    expect((await log(json.id)).map((d) => [d.event, d.status, d.attempts.length, d.attempts[0]!.statusCode])).toEqual([['resolved', 'delivered', 1, 204], ['firing', 'delivered', 1, 204]]);
    expect((await log(mail.id)).every((d) => d.status === 'delivered' && d.attempts[0]!.statusCode === 250)).toBe(true);

    // Send test: signed like the rest, in the log.
    const test = await api.call<{ id: string; event: string }>('POST', `/v1/notification-channels/${json.id}/test`);
    expect(test.status).toBe(202);
    const got = await api.pollUntil(async () => hooks.received.find((r) => r.headers['x-strata-delivery'] === test.body.id), 5000, () => 'no test webhook');
    expect(JSON.parse(got.body)).toMatchObject({ event: 'test', alert: null });
    expect(got.headers['x-strata-signature']).toBe(createHmac('sha256', SECRET).update(got.body).digest('hex'));
    await api.pollUntil(async () => ((await log(json.id)).find((d) => d.id === test.body.id)?.status === 'delivered' ? true : undefined), 5000, () => 'test not delivered');

    // Deleting the rule keeps its history.
    expect((await api.call('DELETE', `/v1/alert-rules/${rule.body.id}`)).status).toBe(204);
    expect((await api.call<{ items: Alert[] }>('GET', `/v1/alerts?clusterId=${clusterId}`)).body.items).toHaveLength(1);
  });

  it('event rules fire on a failover and a failed backup (not a switchover), per cluster for an organization rule, and resolve when the window empties', async () => {
    const created = await api.createCluster({ name: 'events', shards: 1, replicasPerShard: 0, memoryMbPerShard: 16 });
    const clusterId = created.body.cluster.id;
    const hook = (await api.call<NotificationChannel>('POST', '/v1/notification-channels', { type: 'webhook', url: `${hooks.url}/ok-events`, secret: SECRET })).body;
    const WINDOW = 4;
    const org = await api.call<AlertRule>('POST', '/v1/alert-rules', { name: 'any failover', metric: 'failover', forSeconds: WINDOW, channelIds: [hook.id] });
    expect(org.status, JSON.stringify(org.body)).toBe(201);
    expect(org.body.clusterId).toBeNull();
    const backup = await api.call<AlertRule>('POST', `/v1/clusters/${clusterId}/alert-rules`, { metric: 'backup_failed', forSeconds: WINDOW, channelIds: [hook.id] });
    expect(backup.status).toBe(201);
    expect((await api.call<{ items: AlertRule[] }>('GET', `/v1/clusters/${clusterId}/alert-rules`)).body.items.map((r) => r.id).sort()).toEqual([org.body.id, backup.body.id].sort());

    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const orgId = (await db.query('SELECT organization_id FROM clusters WHERE id = $1', [clusterId])).rows[0].organization_id as string;
      // Webhook secrets are sealed at rest (AES-256-GCM with the master key), never stored as given.
      const sealed = (await db.query('SELECT secret_enc FROM notification_channels WHERE id = $1', [hook.id])).rows[0].secret_enc as string;
      expect(sealed).toMatch(/^v1\./);
      expect(sealed).not.toContain(SECRET);
      const ref = (n: number) => ({ instanceId: crypto.randomUUID(), address: `127.0.0.1:${7000 + n}`, nodeName: 'node-1' });
      const failover = async (cause: string) => {
        const id = crypto.randomUUID();
        const at = new Date().toISOString();
        const body = { id, clusterId, at, message: 'test', type: 'failover', shard: 0, cause, oldPrimary: ref(1), newPrimary: ref(2), detectedAt: at, promotedAt: at, clusterOkAt: at, writeUnavailableMs: 0 };
        await db.query('INSERT INTO cluster_events (id, cluster_id, organization_id, type, at, body) VALUES ($1, $2, $3, $4, $5, $6)', [id, clusterId, orgId, 'failover', at, JSON.stringify(body)]);
      };
      const events = (e: string) => hooks.received.filter((r) => r.path === '/ok-events' && JSON.parse(r.body).event === e).map((r) => JSON.parse(r.body) as AlertNotification);

      await failover('switchover');
      await new Promise((r) => setTimeout(r, 1500));
      expect(events('firing')).toEqual([]);

      const t0 = Date.now();
      await failover('process-crash');
      await db.query(
        `INSERT INTO backups (id, organization_id, cluster_id, cluster_name, status, storage, shards, error, finished_at) VALUES ($1, $2, $3, 'events', 'failed', '{"kind":"local","root":"/x"}', '[]', '{"code":"x","message":"disk full"}', now())`,
        [crypto.randomUUID(), orgId, clusterId],
      );
      const fired = await api.pollUntil(async () => (events('firing').length === 2 ? events('firing') : undefined), 5000, () => `firing: ${JSON.stringify(events('firing'))}`);
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(fired.map((n) => [n.alert!.metric, n.alert!.clusterName, n.alert!.value]).sort()).toEqual([['backup_failed', 'events', 1], ['failover', 'events', 1]]);
      // The organization rule is evaluated for the other cluster too, which had no failover.
      const firing = (await api.call<{ items: Alert[] }>('GET', '/v1/alerts?state=firing')).body.items;
      expect(firing.filter((a) => a.ruleId === org.body.id).map((a) => a.clusterId)).toEqual([clusterId]);

      const resolved = await api.pollUntil(async () => (events('resolved').length === 2 ? events('resolved') : undefined), (WINDOW + 5) * 1000, () => 'not resolved');
      for (const n of resolved) expect(Date.parse(n.alert!.resolvedAt!) - Date.parse(n.alert!.startedAt)).toBeGreaterThanOrEqual((WINDOW - 1.5) * 1000);
    } finally {
      await db.end();
    }
  });
});
