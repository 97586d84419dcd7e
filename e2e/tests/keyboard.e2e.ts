import { test, expect, uniqueName } from '../support/fixtures';

test('keyboard only: skip link, nav and the create wizard', async ({ page, api, signedInPage, clustersPage, wizard, clusterPage }) => {
  void signedInPage;
  await clustersPage.goto();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // Into the wizard from the page's primary action.
  await clustersPage.createButton.focus();
  await page.keyboard.press('Enter');
  await expect(wizard.heading).toBeVisible();

  const name = uniqueName('e2e-keys');
  await page.keyboard.press('Tab'); // breadcrumb
  await page.keyboard.press('Tab');
  await expect(wizard.name).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(wizard.shards).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await page.keyboard.press('Tab');
  await expect(wizard.replicasPerShard).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0');
  await page.keyboard.press('Tab');
  await expect(wizard.memory).toBeFocused();
  await page.keyboard.press('Tab');
  // Radio group: arrows move the choice.
  await expect(wizard.durability('AOF, every second')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(wizard.durability('None (in memory)')).toBeChecked();
  await wizard.name.focus();
  await page.keyboard.press('Enter');

  await expect(clusterPage.heading(name)).toBeVisible();
  const id = page.url().split('/clusters/')[1]!;
  try {
    await expect(clusterPage.status).toHaveClusterStatus('Ready', { timeout: 60_000 });
    // Snippet tabs follow the ARIA tabs pattern.
    const tab = page.getByRole('tab', { name: 'redis-cli' });
    await tab.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'ioredis' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'ioredis' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText("import { Cluster } from 'ioredis'");
  } finally {
    await api.deleteCluster(id);
  }
});
