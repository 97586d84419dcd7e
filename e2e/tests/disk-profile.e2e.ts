import type { Locator } from '@playwright/test';
import { test, expect, saveScreenshot } from '../support/fixtures';

/** Starts the chosen preset on small files (8 MiB, 1 s per workload); clusters other tests load may need "Run anyway". */
async function runPreset(panel: Locator, preset: string): Promise<Locator> {
  await panel.getByRole('radio', { name: new RegExp(`^${preset}`) }).check();
  await panel.getByLabel('Test file (MiB)').fill('8');
  await panel.getByLabel('Seconds per workload').fill('1');
  await panel.getByRole('button', { name: 'Start profile' }).click();
  const anyway = panel.getByRole('button', { name: 'Run anyway' });
  const running = panel.getByTestId('disk-profile-run').and(panel.locator('[data-status="running"]'));
  await expect(running.or(anyway).first()).toBeVisible();
  if (await anyway.isVisible()) await anyway.click();
  const run = panel.getByTestId('disk-profile-run');
  // A live progress bar while fio runs, then the result.
  await expect(run.getByRole('progressbar', { name: 'Profile progress' }).or(run.locator('[data-status="completed"]')).first()).toBeVisible();
  await expect(run).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  return run;
}

test('a platform admin profiles a node\'s disk: progress, charts, two runs side by side, durability advice in the wizard', async ({
  signedInPage: page, nodesPage, consoleGuard,
}, testInfo) => {
  test.setTimeout(120_000);
  consoleGuard.allow({ url: /\/v1\/nodes\/[^/]+\/profiles$/, method: 'POST', status: 409 });
  await nodesPage.goto();
  const row = nodesPage.rows.first();
  await row.getByRole('button', { name: 'Profile this disk' }).click();
  const panel = page.getByTestId('disk-profile-panel');
  await expect(panel).toBeVisible();

  const sweep = await runPreset(panel, 'Block size sweep');
  await expect(sweep.getByTestId('profile-result-row')).toHaveCount(6);
  await expect(sweep.getByTestId('chart-iops-block-size').locator('rect')).toHaveCount(6);
  await expect(sweep.getByTestId('chart-mbps-block-size').locator('rect')).toHaveCount(6);
  await expect(sweep.getByTestId('profile-facts')).toContainText('fio-3.');
  await saveScreenshot(page, 'disk-profile-block-size-sweep', testInfo);

  const redis = await runPreset(panel, 'Redis profile');
  await expect(redis.getByTestId('chart-fsync-histogram').locator('rect').first()).toBeVisible();
  await expect(redis.getByTestId('profile-advice')).toContainText('aof-always');
  await saveScreenshot(page, 'disk-profile-redis', testInfo);

  // The two runs side by side.
  await panel.getByText(/^Earlier runs on/).click();
  const ticks = panel.getByRole('checkbox', { name: 'compare' });
  await ticks.nth(0).check();
  await ticks.nth(1).check();
  const compare = page.getByTestId('profile-compare');
  await expect(compare.getByTestId('profile-result')).toHaveCount(2);
  await expect(compare.getByTestId('chart-iops-block-size')).toBeVisible();
  await expect(compare.getByTestId('chart-fsync-histogram')).toBeVisible();

  // What it means for durability, next to the choice in the create wizard.
  await page.goto('/clusters/new');
  await page.getByRole('radio', { name: /AOF, every write/ }).check();
  await expect(page.getByTestId('durability-advice')).toContainText(/writes\/s/);
});
