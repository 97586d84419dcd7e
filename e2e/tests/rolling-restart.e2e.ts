import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('Settings: a rolling restart asks first, saying what it does, then runs to the end with the cluster ready again', async ({
  signedInPage: page, api, createCluster, clusterPage,
}, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-roll'), shards: 1, replicasPerShard: 1, memoryMbPerShard: 64 }, { waitReady: true });
  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Settings');
  const panel = page.getByTestId('restart-panel');
  await panel.getByRole('button', { name: 'Restart all engines' }).click();
  const dialog = page.getByTestId('restart-confirm');
  await expect(page.getByRole('heading', { name: /Restart all 2 engines of / })).toBeVisible();
  await expect(dialog).toContainText('hands over to a replica');
  await expect(dialog).toContainText('no acknowledged write is lost');
  await saveScreenshot(page, 'rolling-restart-confirm', testInfo);
  await dialog.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Rolling restart started' })).toBeVisible();
  await expect.poll(async () => (await api.clusterOperations(cluster.id)).find((o) => o.kind === 'restart-cluster')?.state, { timeout: 90_000 }).toBe('succeeded');
  await expect.poll(async () => (await api.getCluster(cluster.id)).status.phase, { timeout: 30_000 }).toBe('ready');
});
