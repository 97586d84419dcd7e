import { readFileSync } from 'node:fs';
import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import { SettingsTab } from '../support/pages/SettingsTab';

test('a TLS cluster from the wizard: Download CA saves the CA, the snippets speak TLS, a client with the downloaded CA writes and reads; a client certificate is created (key once), listed and revoked; Rotate CA (asked first) runs its steps and offers the new CA, which a client uses; Settings requires client certificates, warned first', async ({
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

    // Create client certificate: the key is offered once (gone after a reload), the list shows the certificate, Revoke marks it revoked.
    await page.getByLabel('Client certificate name').fill('e2e-app');
    await page.getByTestId('create-client-certificate').click();
    const issued = page.getByTestId('client-certificate').getByRole('status');
    await expect(issued).toContainText('the key is shown only once');
    const keyDownload = page.waitForEvent('download');
    await page.getByTestId('download-client-key').click();
    const key = readFileSync((await (await keyDownload).path())!, 'utf8');
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const row = page.getByRole('table', { name: 'Client certificates' }).getByRole('row').filter({ hasText: 'e2e-app' });
    await expect(row).toContainText('active', { timeout: 20_000 });
    await page.reload();
    await expect(row).toBeVisible();
    await expect(page.getByTestId('download-client-key')).toHaveCount(0);
    await row.getByRole('button', { name: 'Revoke e2e-app' }).click();
    const dialog = page.getByTestId('revoke-client-certificate');
    await expect(dialog).toContainText('refuses');
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await expect(row).toContainText('revoked', { timeout: 20_000 });
    await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

    // Rotate CA: asked first with what happens, the old CA retired right away (a 1x1 rotates in seconds), the steps to 100 %, the new CA offered.
    await clusterPage.connection.getByRole('button', { name: 'Rotate CA' }).click();
    const rotateDialog = page.getByTestId('rotate-ca-confirm');
    await expect(rotateDialog).toContainText('holds both CAs');
    await expect(rotateDialog).toContainText('before then');
    await rotateDialog.getByLabel('Retire the old CA after').selectOption({ label: 'Right away (only if no client trusts the old CA alone)' });
    await rotateDialog.getByRole('button', { name: 'Rotate CA' }).click();
    const rotation = page.getByTestId('ca-rotation-progress');
    await expect(rotation.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(4);
    await expect(page.getByTestId('ca-rotation-percent')).toHaveText('100%', { timeout: 30_000 });
    await expect(rotation).toContainText('CA rotated');
    await saveScreenshot(page, 'cluster-tls-ca-rotated', testInfo);
    const newCaDownload = page.waitForEvent('download');
    await rotation.getByRole('link', { name: 'Download the new CA' }).click();
    const newCa = readFileSync((await (await newCaDownload).path())!, 'utf8');
    expect(newCa).not.toBe(ca);
    expect(newCa.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    expect(newCa).toBe((await api.getConnection(clusterId)).caCertificate);
    const rotated = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
      redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: { ca: newCa } },
      slotsRefreshTimeout: 5000,
    });
    try {
      expect(await rotated.get('e2e:tls')).toBe('over-tls');
    } finally {
      rotated.disconnect();
    }

    // Settings: client certificates required, warned first (at the field and when applying), applied in place with its progress.
    await clusterPage.openTab('Settings');
    const settings = new SettingsTab(page);
    await expect(settings.clientAuth).toHaveValue('none');
    await settings.clientAuth.selectOption('required');
    await expect(settings.clientAuthWarning).toContainText('without a certificate are refused');
    await settings.previewButton.click();
    await expect(settings.plan).toContainText('Client certificates: Not asked → Required');
    await settings.applyButton.click();
    await expect(settings.applyDialog).toContainText('without a certificate are refused');
    await settings.confirmApplyButton.click();
    await expect(settings.percent).toHaveText('100%', { timeout: 30_000 });
    await expect(settings.migration).toContainText('Change complete');
    expect((await api.getCluster(clusterId)).spec.tlsClientAuth).toBe('required');
  } finally {
    await api.deleteCluster(clusterId);
  }
});
