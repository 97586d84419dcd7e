import { test, expect, saveScreenshot, uniqueName, expectAccessible } from '../support/fixtures';
import { BackupsTab } from '../support/pages/BackupsTab';

test.describe('backups tab', () => {
  test('backs up now (consistent), shows the backup with its size and keys, and saves a schedule', async ({ signedInPage: page, createCluster, consoleGuard }, testInfo) => {
    test.setTimeout(120_000);
    const cluster = await createCluster({ name: uniqueName('e2e-backup'), shards: 2, replicasPerShard: 0 }, { waitReady: true });
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
    await expect(tab.rows.first().getByTestId('backup-keys')).toHaveText('0');
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
  });
});
