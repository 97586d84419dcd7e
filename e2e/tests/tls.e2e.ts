import { readFileSync } from 'node:fs';
import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('a TLS cluster from the wizard: Download CA saves the CA, the snippets speak TLS, a client with the downloaded CA writes and reads', async ({
  signedInPage: page, api, wizard, clusterPage,
}, testInfo) => {
  const name = uniqueName('e2e-tls');
  await wizard.goto();
  await wizard.fill({ name, shards: 1, replicasPerShard: 1, memory: '32 MB' });
  await page.getByLabel('Require TLS').check();
  await wizard.submit.click();
  await expect(clusterPage.heading(name)).toBeVisible();
  const clusterId = page.url().split('/clusters/')[1]!;
  try {
    await expect(clusterPage.status).toHaveClusterStatus('Ready', { timeout: 120_000 });
    await expect(clusterPage.uri).toContainText('rediss://');
    await expect(page.getByText('TLS only', { exact: true })).toBeVisible();
    await expect(clusterPage.connection.getByText('--tls --cacert ca.pem').first()).toBeVisible();
    await saveScreenshot(page, 'cluster-tls-connect', testInfo);

    const download = page.waitForEvent('download');
    await clusterPage.connection.getByRole('link', { name: 'Download CA' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('ca.pem');
    const ca = readFileSync((await file.path())!, 'utf8');
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    const conn = await api.getConnection(clusterId);
    expect(ca).toBe(conn.caCertificate);

    const u = new URL(conn.uri);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
      redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: { ca } },
      slotsRefreshTimeout: 5000,
    });
    try {
      await client.set('e2e:tls', 'over-tls');
      expect(await client.get('e2e:tls')).toBe('over-tls');
    } finally {
      client.disconnect();
    }
  } finally {
    await api.deleteCluster(clusterId);
  }
});
