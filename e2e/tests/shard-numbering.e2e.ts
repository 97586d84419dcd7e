import { execFileSync } from 'node:child_process';
import { shardLabel } from '@strata/api';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import { SettingsTab } from '../support/pages/SettingsTab';

/**
 * One shard identity everywhere: every screen that names a shard of the same
 * 3-shard cluster shows "Shard 1".."Shard 3" (the plan's new shard "Shard 4"),
 * and the failover of Topology's "Shard 2" is told as "Shard 2" by the API's
 * event, the Activity tab and the health alert.
 */
for (const vp of [{ width: 390, height: 844 }, { width: 768, height: 1024 }, { width: 1440, height: 900 }]) {
  test(`every screen names the shards of one cluster the same way, counting from 1 at ${vp.width} px`, async ({ signedInPage: page, api, createCluster, clusterPage }, testInfo) => {
    await page.setViewportSize(vp);
    const cluster = await createCluster({ name: uniqueName('e2e-numbering'), shards: 3, replicasPerShard: 1, memoryMbPerShard: 32 }, { waitReady: true });
    const expected = ['Shard 1', 'Shard 2', 'Shard 3'];
    const labels = (scope: import('@playwright/test').Locator) => scope.getByTestId('shard-label').allInnerTexts();

    await clusterPage.goto(cluster.id);
    await expect(clusterPage.shardRows).toHaveCount(3);
    expect(await labels(clusterPage.topology)).toEqual(expected);

    await page.goto(`/clusters/${cluster.id}/monitoring`);
    await expect(page.getByTestId('shard-cell')).toHaveCount(3, { timeout: 15_000 });
    expect(await labels(page.locator('.shard-strip'))).toEqual(expected);

    await clusterPage.openTab('Settings');
    const settings = new SettingsTab(page);
    await expect(page.getByTestId('switchover-list').getByTestId('shard-label')).toHaveCount(3);
    expect(await labels(page.getByTestId('switchover-list'))).toEqual(expected);
    await expect(settings.switchoverButton(1)).toHaveAccessibleName('Switch over shard 2');
    await settings.shards.fill('4');
    await settings.previewButton.click();
    await expect(settings.plan).toBeVisible();
    const from = await settings.planMoves.locator('td[data-label="From"]').allInnerTexts();
    const to = await settings.planMoves.locator('td[data-label="To"]').allInnerTexts();
    expect(from.map((t) => t.trim())).toEqual(expected);
    expect(to.map((t) => t.trim())).toEqual(['Shard 4', 'Shard 4', 'Shard 4']);
    await expect(settings.planInstances).toContainText('+ shard 4 primary');
    await saveScreenshot(page, `numbering-plan-${vp.width}`, testInfo);
    await page.getByRole('button', { name: 'Discard' }).click();

    // Kill the primary of the shard Topology calls "Shard 2" (index 1).
    const topology = await api.topology(cluster.id);
    const victim = topology.shards.find((s) => s.index === 1)!.instances.find((i) => i.role === 'primary')!;
    const pid = Number(execFileSync('pgrep', ['-f', `redis-server ${victim.address}`], { encoding: 'utf8' }).trim());
    process.kill(pid, 'SIGKILL');

    await expect.poll(async () => (await api.events(cluster.id)).find((e) => e.type === 'failover')?.message ?? '', { timeout: 30_000 })
      .toMatch(new RegExp(`^${shardLabel(1)}: .* took over from ${victim.address}`));
    await clusterPage.openTab('Activity');
    const failover = page.locator('[data-event-type="failover"]').first();
    await expect(failover).toContainText('Shard 2:');
    await expect(failover).not.toContainText(/Shard [013]\b/);
    await saveScreenshot(page, `numbering-activity-${vp.width}`, testInfo);
    await api.waitForPhase(cluster.id, 'ready', 60_000);
  });
}
