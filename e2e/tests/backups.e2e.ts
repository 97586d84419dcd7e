import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName, expectAccessible } from '../support/fixtures';
import { BackupsTab } from '../support/pages/BackupsTab';
import { CreateClusterPage } from '../support/pages/CreateClusterPage';
import { BackupsPage } from '../support/pages/BackupsPage';
import { savedRdbFile } from '../support/rdb-file';

const KEYS = 300;

test.describe('backups tab', () => {
  test('backs up now (consistent), shows the backup with its size and keys, saves a schedule, and restores it into another shard count', async ({ signedInPage: page, api, createCluster, consoleGuard }, testInfo) => {
    test.setTimeout(180_000);
    const cluster = await createCluster({ name: uniqueName('e2e-backup'), shards: 2, replicasPerShard: 0 }, { waitReady: true });
    const u = new URL((await api.getConnection(cluster.id)).uri);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } });
    try {
      await Promise.all(Array.from({ length: KEYS }, (_, i) => client.set(`e2e:${i}`, `v${i}`)));
    } finally {
      client.disconnect();
    }
    const tab = new BackupsTab(page);
    await tab.goto(cluster.id);
    await expect(page.getByText('No backups yet.')).toBeVisible();
    await expect(tab.next).toHaveText('No scheduled backups.');

    await tab.consistent.check();
    await tab.backUpNow.click();
    await expect(tab.rows).toHaveCount(1);
    await expect(tab.rows.first().getByTestId('backup-status')).toHaveText('completed', { timeout: 60_000 });
    await expect(tab.rows.first()).toContainText('consistent');
    await expect(tab.rows.first().getByTestId('backup-size')).toHaveText(/^\d+(\.\d)? (B|KB|MB)$/);
    await expect(tab.rows.first().getByTestId('backup-keys')).toHaveText(String(KEYS));
    await expect(tab.rows.first()).toContainText(/pause [\d.]+ ms/);

    // Schedule: daily at 03:30, keep 5 days; the next time is shown, and nonsense is named by the server.
    await tab.scheduleForm.getByLabel('Back up').selectOption('daily');
    await tab.scheduleForm.getByLabel('Time of day (UTC)').fill('03:30');
    await tab.scheduleForm.getByLabel('Keep', { exact: true }).selectOption('days');
    consoleGuard.allow({ url: /\/backup-schedule$/, method: 'PUT', status: 400 });
    await tab.scheduleForm.getByLabel('Days to keep').fill('-1');
    await tab.scheduleForm.getByRole('button', { name: 'Save schedule' }).click();
    await expect(tab.scheduleForm.getByText(/Too small|>=|greater/i)).toBeVisible();
    await tab.scheduleForm.getByLabel('Days to keep').fill('5');
    await tab.scheduleForm.getByRole('button', { name: 'Save schedule' }).click();
    await expect(tab.next).toContainText('Next backup');
    await expect(tab.rows.first()).not.toContainText('until deleted');
    await saveScreenshot(page, 'backups-tab', testInfo);
    await expectAccessible(page, 'backups-tab', testInfo);

    await test.step('Restore opens the wizard prefilled from the manifest; 3 shards instead of 2: the keys are moved in', async () => {
      await tab.rows.first().getByRole('link', { name: /^Restore/ }).click();
      const wizard = new CreateClusterPage(page);
      await expect(wizard.heading).toBeVisible();
      await expect(page.getByTestId('restore-keys')).toHaveText(`${KEYS} keys`);
      await expect(wizard.name).toHaveValue(`${cluster.name}-restored`);
      await expect(wizard.shards).toHaveValue('2');
      await expect(wizard.replicasPerShard).toHaveValue('0');
      await expect(wizard.memory).toHaveValue('32');
      await wizard.shards.fill('3');
      await wizard.submit.click();
      await page.waitForURL(/\/clusters\/[0-9a-f-]{36}$/);
      const restoredId = new URL(page.url()).pathname.split('/').pop()!;
      try {
        await expect(page.getByText(/^Load the backup/)).toBeVisible();
        await api.waitForPhase(restoredId, 'ready');
        await page.goto(`/clusters/${restoredId}/monitoring`);
        await expect(page.getByTestId('keys-now')).toHaveText(String(KEYS), { timeout: 15_000 });
      } finally {
        await api.deleteCluster(restoredId);
      }
    });

    await test.step("the organization's Backups page: an RDB file uploaded, and the deleted cluster's backup restorable", async () => {
      const backups = new BackupsPage(page);
      await backups.goto();
      const rdb = await savedRdbFile(40);
      const name = uniqueName('e2e-upload');
      try {
        await backups.file.setInputFiles(rdb.file);
        await backups.name.fill(name);
        await backups.upload.click();
        await expect(backups.row(name)).toContainText('uploaded RDB');
        await expect(backups.row(name).getByTestId('backup-status')).toHaveText('completed');
        await expect(backups.row(name).getByTestId('backup-keys')).toHaveText('40');
      } finally {
        rdb.cleanup();
      }
      await expect(backups.row(cluster.name).getByRole('link', { name: cluster.name, exact: true })).toBeVisible();

      // Once its cluster is deleted, its page is gone: the backup is listed here as such, and restores.
      await api.deleteCluster(cluster.id);
      await api.waitForGone(cluster.id);
      await backups.show.selectOption('deleted');
      await expect(backups.row(cluster.name).getByTestId('backup-cluster-deleted')).toBeVisible();
      await expect(backups.row(name)).toHaveCount(0);
      await saveScreenshot(page, 'backups-page', testInfo);
      await expectAccessible(page, 'backups-page', testInfo);
      await backups.row(cluster.name).getByRole('link', { name: /^Restore/ }).click();
      await expect(new CreateClusterPage(page).name).toHaveValue(`${cluster.name}-restored`);
      await expect(page.getByTestId('restore-keys')).toHaveText(`${KEYS} keys`);
    });
  });
});
