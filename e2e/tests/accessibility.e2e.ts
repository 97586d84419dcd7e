import { ARTIFACTS, test, expect, expectAccessible, saveScreenshot, signInByApi, uniqueName } from '../support/fixtures';
import { StrataApi } from '../support/api';

// axe-core on every page, plus a screenshot of each into e2e/artifacts/.
test.describe('accessibility and screenshots', () => {
  test('sign-in page', async ({ page, signInPage }, testInfo) => {
    await signInPage.goto();
    await expectAccessible(page, 'sign-in', testInfo);
    await saveScreenshot(page, 'sign-in', testInfo);
  });

  test('clusters list, wizard, cluster and nodes pages', async ({ page, createCluster, signedInPage, clustersPage, wizard, clusterPage, nodesPage }, testInfo) => {
    void signedInPage;
    const cluster = await createCluster({ name: uniqueName('e2e-a11y'), shards: 2, replicasPerShard: 1 }, { waitReady: true });

    await clustersPage.goto();
    await expect(clustersPage.status(cluster.name)).toHaveClusterStatus('Ready');
    await expectAccessible(page, 'clusters', testInfo);
    await saveScreenshot(page, 'clusters', testInfo);

    await wizard.goto();
    await wizard.fill({ name: 'orders-cache', shards: 3, replicasPerShard: 1, memory: '256 MB' });
    await expect(wizard.summaryValue('nodes')).toContainText('online');
    await expectAccessible(page, 'wizard', testInfo);
    await saveScreenshot(page, 'wizard', testInfo);

    await clusterPage.goto(cluster.id);
    await expect(clusterPage.status).toHaveClusterStatus('Ready');
    await expect(clusterPage.uri).toBeVisible();
    await expect(clusterPage.topology.locator('[data-health="healthy"]')).toHaveCount(4);
    await expectAccessible(page, 'cluster', testInfo);
    await saveScreenshot(page, 'cluster', testInfo);

    await clusterPage.openTab('Activity');
    await expect(page.getByTestId('operations-timeline')).toBeVisible();
    await expectAccessible(page, 'cluster-activity', testInfo);
    await saveScreenshot(page, 'cluster-activity', testInfo);

    for (const [tab, ready] of [
      ['monitoring', page.getByTestId('chart-cpu')],
      ['benchmarks', page.getByTestId('preset-failover-under-load')],
      ['settings', page.getByTestId('switchover-list').getByRole('button').first()],
    ] as const) {
      await page.goto(`/clusters/${cluster.id}/${tab}`);
      await expect(ready).toBeVisible();
      await expectAccessible(page, `cluster-${tab}`, testInfo);
      await saveScreenshot(page, `cluster-${tab}`, testInfo);
    }
    // A confirmation, with its impact.
    await page.getByTestId('switchover-list').getByRole('button').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, 'switchover-dialog', testInfo);
    await page.keyboard.press('Escape');
    await clusterPage.goto(cluster.id);

    await clusterPage.deleteButton.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, 'delete-dialog', testInfo);
    await page.screenshot({ path: `${ARTIFACTS}/delete-dialog.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await clusterPage.delete(cluster.name);
    await expect(clustersPage.heading).toBeVisible();
    await saveScreenshot(page, 'clusters-deleting', testInfo);

    await nodesPage.goto();
    await expect(nodesPage.rows).toHaveCount(3);
    await expectAccessible(page, 'nodes', testInfo);
    await saveScreenshot(page, 'nodes', testInfo);

    await page.goto('/settings/access');
    await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page, 'access', testInfo);
    await saveScreenshot(page, 'access', testInfo);
  });

  test('empty clusters list (new organization)', async ({ page, api, stack, clustersPage }, testInfo) => {
    const { token } = await api.createOrganization(uniqueName('e2e-empty'));
    const email = `${uniqueName('empty')}@example.test`;
    await new StrataApi(stack.url, token).createUser(email, 'correct-horse-battery');
    await signInByApi(page, email, 'correct-horse-battery');
    await clustersPage.goto();
    await expect(clustersPage.emptyState).toBeVisible();
    await expectAccessible(page, 'clusters-empty', testInfo);
    await saveScreenshot(page, 'clusters-empty', testInfo);
  });
});
