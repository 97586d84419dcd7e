import { createHmac } from 'node:crypto';
import { Cluster as RedisCluster } from 'ioredis';
import { startWebhookReceiver } from '@strata/local/notification-receivers';
import { test, expect, saveScreenshot, uniqueName, expectAccessible } from '../support/fixtures';
import { AlertsPage } from '../support/pages/AlertsPage';

test.describe('alerts', () => {
  test('a memory rule made in the console fires after a load and resolves after FLUSHALL; its webhook is tested and logged', async ({ signedInPage: page, api, createCluster }, testInfo) => {
    const hooks = await startWebhookReceiver();
    const name = uniqueName('e2e-alert');
    const hook = uniqueName('hook');
    const cluster = await createCluster({ name, shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }, { waitReady: true });
    const alerts = new AlertsPage(page);
    const conn = await api.getConnection(cluster.id);
    const u = new URL(conn.uri);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } });
    page.on('dialog', (d) => void d.accept());
    try {
      await alerts.goto();
      await test.step('a webhook channel, tested from the console, with its delivery log', async () => {
        await alerts.addWebhook(hook, `${hooks.url}/ok-e2e`, 'e2e-webhook-secret');
        await expect(alerts.channel(hook)).toBeVisible();
        await alerts.channel(hook).getByRole('button', { name: `Send test to ${hook}` }).click();
        const log = alerts.channel(hook).getByRole('table', { name: `Delivery log of ${hook}` });
        await expect(log.getByRole('row').filter({ hasText: 'test' })).toContainText('delivered');
        await expect(log).toContainText('#1 204');
        const test = hooks.received.find((r) => JSON.parse(r.body).event === 'test')!;
        expect(test.headers['x-strata-signature']).toBe(createHmac('sha256', 'e2e-webhook-secret').update(test.body).digest('hex'));
      });

      await test.step('a rule from the editor; nonsense is refused at the field', async () => {
        await alerts.addRule({ cluster: name, metric: 'Memory used', threshold: '-5', forSeconds: '2', channels: [hook] });
        await expect(alerts.ruleForm.getByText('Must be 0 or more.')).toBeVisible();
        await alerts.addRule({ cluster: name, metric: 'Memory used', threshold: '25', forSeconds: '2', channels: [] });
        await expect(alerts.rule(name)).toContainText('> 25 % for 2 s');
        await expect(alerts.rule(name)).toContainText('OK');
      });

      await test.step('fill the cluster: the alert fires, with a link to the cluster', async () => {
        const value = 'x'.repeat(100_000);
        for (let i = 0; i < 130; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => client.set(`fill:${i + j}`, value)));
        await expect(alerts.alert(name)).toContainText('Firing', { timeout: 15_000 });
        await expect(alerts.rule(name)).toContainText('Firing');
        await expect(page.getByTestId('firing-count')).toHaveText(/[1-9]\d* firing now/);
        await saveScreenshot(page, 'alerts-firing', testInfo);
        await expectAccessible(page, 'alerts', testInfo);
      });

      await test.step('FLUSHALL: it resolves', async () => {
        for (const node of client.nodes('master')) await node.flushall();
        await expect(alerts.alert(name)).toContainText('Resolved', { timeout: 15_000 });
        await expect(alerts.rule(name)).toContainText('OK');
      });

      await test.step('edit, then delete the rule; the link leads to the cluster', async () => {
        await alerts.rule(name).getByRole('button', { name: /^Edit/ }).click();
        await alerts.rule(name).getByLabel('Threshold').fill('90');
        await alerts.rule(name).getByRole('button', { name: 'Save' }).click();
        await expect(alerts.rule(name)).toContainText('> 90 % for 2 s');
        await alerts.rule(name).getByRole('button', { name: /^Delete/ }).click();
        await expect(alerts.rule(name)).toHaveCount(0);
        await alerts.channel(hook).getByRole('button', { name: `Delete ${hook}` }).click();
        await expect(alerts.channel(hook)).toHaveCount(0);
        await alerts.alert(name).getByRole('link', { name }).click();
        await expect(page).toHaveURL(new RegExp(`/clusters/${cluster.id}$`));
      });
    } finally {
      client.disconnect();
      await hooks.close();
    }
  });
});
