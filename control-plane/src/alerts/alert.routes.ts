/** Alert rules, alerts, the Prometheus export, notification channels and their delivery logs. */
import { Router } from 'express';
import { ALERT_METRICS, type AlertRuleList, type CreateAlertRuleRequest, type FieldError } from '@strata/api';
import { notFound, unprocessable } from '../errors';
import { mountOperation, mountRaw } from '../http/operation-router';
import type { ClusterStore } from '../stores/cluster.store';
import type { SecretBox } from '../crypto/secret-box';
import { publicChannel, publicDelivery, publicRule, type AlertStore, type RuleRow } from './alert.store';
import { prometheusRuleFile, type ExportRule } from './prometheus-rules';
import { notification } from './notification-payload';

const BASE = '/v1';

export function alertRoutes(d: {
  store: AlertStore;
  clusters: ClusterStore;
  box: SecretBox;
  smtpConfigured: boolean;
  maxPendingPerChannel: number;
  rulesChanged: () => void;
  queued: () => void;
}): Router {
  const r = Router();
  const org = (req: { principal?: { organizationId: string } }) => req.principal!.organizationId;

  const checkChannels = async (organizationId: string, ids: string[]) => {
    const known = await d.store.existingChannels(organizationId, ids);
    const errors: FieldError[] = ids.flatMap((id, i) => (known.has(id) ? [] : [{ field: `channelIds.${i}`, message: `no notification channel ${id}` }]));
    if (errors.length) throw unprocessable('validation_failed', 'Unknown notification channel', 'channelIds names a channel that does not exist.', errors);
  };
  const defaultName = (b: CreateAlertRuleRequest) => {
    const m = ALERT_METRICS[b.metric];
    return m.kind === 'gauge' ? `${m.label} above ${b.threshold}${m.unit ? ` ${m.unit}` : ''}` : m.label;
  };
  const view = async (rows: RuleRow[]) => {
    const firing = await d.store.firingCounts(rows.map((x) => x.id));
    return rows.map((x) => publicRule(x, firing.get(x.id) ?? 0));
  };
  const create = async (organizationId: string, clusterId: string | null, b: CreateAlertRuleRequest) => {
    await checkChannels(organizationId, b.channelIds);
    const row = await d.store.insertRule({
      organizationId, clusterId, name: b.name ?? defaultName(b), metric: b.metric, threshold: b.threshold, forSeconds: b.forSeconds, channelIds: b.channelIds, enabled: b.enabled,
    });
    d.rulesChanged();
    return row;
  };
  const exportRules = async (organizationId: string, clusterId?: string): Promise<ExportRule[]> => {
    const rules = (await d.store.listRules(organizationId, clusterId)).filter((x) => x.enabled);
    const clusters = clusterId ? [(await d.clusters.get(clusterId, organizationId))!] : await d.clusters.list(organizationId);
    return rules.flatMap((x) => clusters.filter((c) => x.clusterId === null || x.clusterId === c.id).map((c) => ({
      id: x.id, name: x.name, metric: x.metric, threshold: x.threshold, forSeconds: x.forSeconds, cluster: { id: c.id, name: c.name },
    })));
  };

  mountOperation(r, BASE, 'createClusterAlertRule', async (input) => {
    const { req, res, id } = input;
    if (!(await d.clusters.get(id, org(req)))) throw notFound('Cluster');
    const body = input.body;
    const row = await create(org(req), id, body);
    res.location(`/v1/alert-rules/${row.id}`);
    return publicRule(row, 0);
  });
  mountOperation(r, BASE, 'listClusterAlertRules', async ({ req, id }) => {
    if (!(await d.clusters.get(id, org(req)))) throw notFound('Cluster');
    const out: AlertRuleList = { items: await view(await d.store.listRules(org(req), id)) };
    return out;
  });
  mountRaw(r, BASE, 'clusterPrometheusRules', async ({ req, res, id }) => {
    if (!(await d.clusters.get(id, org(req)))) throw notFound('Cluster');
    res.type('application/yaml').send(prometheusRuleFile(await exportRules(org(req), id)));
  });
  mountOperation(r, BASE, 'createAlertRule', async ({ req, res, body }) => {
    const row = await create(org(req), null, body);
    res.location(`/v1/alert-rules/${row.id}`);
    return publicRule(row, 0);
  });
  mountOperation(r, BASE, 'listAlertRules', async ({ req }) => ({ items: await view(await d.store.listRules(org(req))) }));
  mountRaw(r, BASE, 'prometheusRules', async ({ req, res }) => {
    res.type('application/yaml').send(prometheusRuleFile(await exportRules(org(req))));
  });
  mountOperation(r, BASE, 'getAlertRule', async ({ req, id }) => {
    const row = await d.store.getRule(id, org(req));
    if (!row) throw notFound('Alert rule');
    return (await view([row]))[0]!;
  });
  mountOperation(r, BASE, 'updateAlertRule', async ({ req, id, body }) => {
    if (!(await d.store.getRule(id, org(req)))) throw notFound('Alert rule');
    if (body.channelIds) await checkChannels(org(req), body.channelIds);
    const row = await d.store.updateRule(id, org(req), body);
    if (!row) throw notFound('Alert rule');
    d.rulesChanged();
    return (await view([row]))[0]!;
  });
  mountOperation(r, BASE, 'deleteAlertRule', async ({ req, id }) => {
    if (!(await d.store.deleteRule(id, org(req)))) throw notFound('Alert rule');
    d.rulesChanged();
  });
  mountOperation(r, BASE, 'listAlerts', async ({ req, query }) => ({ items: await d.store.listAlerts(org(req), query) }));

  mountOperation(r, BASE, 'createNotificationChannel', async ({ req, res, body }) => {
    if (body.type === 'email' && !d.smtpConfigured) {
      throw unprocessable('smtp_not_configured', 'No SMTP server', 'E-mail channels need an SMTP server configured by the operator (STRATA_SMTP_URL).', [
        { field: 'type', message: 'e-mail is not available: the operator has configured no SMTP server' },
      ]);
    }
    const row = await d.store.insertChannel(body.type === 'webhook'
      ? { organizationId: org(req), type: 'webhook', name: body.name ?? new URL(body.url).host, url: body.url, format: body.format, secretEnc: d.box.seal(body.secret), to: null }
      : { organizationId: org(req), type: 'email', name: body.name ?? body.to.join(', ').slice(0, 100), url: null, format: null, secretEnc: null, to: body.to });
    res.location(`/v1/notification-channels/${row.id}`);
    return publicChannel(row);
  });
  mountOperation(r, BASE, 'listNotificationChannels', async ({ req }) => ({ items: (await d.store.listChannels(org(req))).map(publicChannel) }));
  mountOperation(r, BASE, 'getNotificationChannel', async ({ req, id }) => {
    const row = await d.store.getChannel(id, org(req));
    if (!row) throw notFound('Notification channel');
    return publicChannel(row);
  });
  mountOperation(r, BASE, 'deleteNotificationChannel', async ({ req, id }) => {
    if (!(await d.store.deleteChannel(id, org(req)))) throw notFound('Notification channel');
    d.rulesChanged();
  });
  mountOperation(r, BASE, 'testNotificationChannel', async ({ req, id }) => {
    if (!(await d.store.getChannel(id, org(req)))) throw notFound('Notification channel');
    const [row] = await d.store.enqueue(org(req), [id], null, 'test', (deliveryId) => notification(deliveryId, 'test', null, new Date()), d.maxPendingPerChannel);
    if (!row) throw notFound('Notification channel');
    d.queued();
    return publicDelivery(row);
  });
  mountOperation(r, BASE, 'listNotificationDeliveries', async ({ req, id }) => {
    if (!(await d.store.getChannel(id, org(req)))) throw notFound('Notification channel');
    return { items: (await d.store.listDeliveries(id, org(req))).map(publicDelivery) };
  });
  return r;
}
