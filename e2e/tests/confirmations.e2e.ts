import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import { SettingsTab } from '../support/pages/SettingsTab';

for (const vp of [{ width: 390, height: 844 }, { width: 768, height: 1024 }, { width: 1440, height: 900 }]) {
  test(`disruptive actions ask first, saying what they do, and every action shows its result at ${vp.width} px`, async ({ signedInPage: page, api, createCluster, clusterPage }, testInfo) => {
    await page.setViewportSize(vp);
    const cluster = await createCluster({ name: uniqueName('e2e-confirm'), shards: 2, replicasPerShard: 1, memoryMbPerShard: 32 }, { waitReady: true });

    // Benchmarks: every preset card says what a run does; the failover preset asks before killing a primary.
    await page.goto(`/clusters/${cluster.id}/benchmarks`);
    const cards = page.locator('[data-testid^="preset-"]').filter({ has: page.getByTestId('preset-impact') });
    await expect(cards).toHaveCount(5);
    for (const impact of await page.getByTestId('preset-impact').allInnerTexts()) expect(impact).toMatch(/records of its own .* removed afterwards; your keys are never read or written/);
    const failover = page.getByTestId('preset-failover-under-load');
    await expect(failover.getByTestId('preset-impact')).toContainText('Disrupts service: ');
    await expect(failover.getByTestId('preset-impact')).toContainText('Kills the primary of shard 1');
    await failover.getByRole('button', { name: 'Run Failover under load' }).click();
    const ask = page.getByRole('dialog', { name: 'Run "Failover under load"?' });
    await expect(ask).toContainText('Kills the primary of shard 1');
    await saveScreenshot(page, `confirm-failover-preset-${vp.width}`, testInfo);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    const runs = await page.context().request.get(`/v1/clusters/${cluster.id}/benchmarks`);
    expect((await runs.json()).items).toEqual([]);

    // Switchover: asked with the impact, then a toast and the new primary.
    const before = (await api.topology(cluster.id)).shards.find((s) => s.index === 0)!.instances.find((i) => i.role === 'primary')!;
    await clusterPage.openTab('Settings');
    const settings = new SettingsTab(page);
    await settings.switchoverButton(0).click();
    const so = page.getByRole('dialog', { name: 'Switch over Shard 1?' });
    await expect(so).toContainText(`Shard 1's primary ${before.address} on ${before.nodeName} hands over to`);
    await expect(so).toContainText('Writes to shard 1 pause for about a second');
    await saveScreenshot(page, `confirm-switchover-${vp.width}`, testInfo);
    await so.getByRole('button', { name: 'Switch over' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Switchover of Shard 1 started' })).toBeVisible();
    await expect.poll(async () => (await api.topology(cluster.id)).shards.find((s) => s.index === 0)!.instances.find((i) => i.role === 'primary')?.address, { timeout: 20_000 })
      .not.toBe(before.address);
    await api.waitForPhase(cluster.id, 'ready', 30_000);

    // Delete: asked with what it stops, then a toast on the clusters list.
    await clusterPage.openTab('Overview');
    await clusterPage.deleteButton.click();
    await expect(page.getByRole('dialog', { name: `Delete ${cluster.name}?` })).toContainText("This stops all 4 of the cluster's instances and deletes their data.");
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await clusterPage.delete(cluster.name);
    await expect(page.getByTestId('toast').filter({ hasText: `${cluster.name} is being deleted` })).toBeVisible();
    await expect(page).toHaveURL(/\/clusters$/);
  });
}
