import { test, expect, saveScreenshot, uniqueName, expectAccessible } from '../support/fixtures';
import { BenchmarksTab } from '../support/pages/BenchmarksTab';

test.describe('one-click benchmarks', () => {
  test('clicking a preset shows progress, then a result page with numbers and charts', async ({ signedInPage: page, createCluster }, testInfo) => {
    test.setTimeout(240_000);
    const cluster = await createCluster({ name: uniqueName('e2e-bench'), shards: 2, replicasPerShard: 0 }, { waitReady: true });
    const tab = new BenchmarksTab(page);
    await tab.goto(cluster.id);
    await expect(tab.preset('rethinkdb-c')).toContainText('RethinkDB report: workload C');
    await tab.preset('rethinkdb-c').getByRole('button', { name: /Run/ }).click();

    // progress: the bar moves while records load and the run goes on
    await expect(tab.progress).toBeVisible();
    await expect(tab.progressBar).toHaveAttribute('aria-valuenow', /\d+/);
    await expect.poll(async () => Number(await tab.progressBar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThan(40);
    await expect(tab.liveChart).toBeVisible({ timeout: 30_000 });
    await saveScreenshot(page, 'benchmark-progress', testInfo);

    // result: numbers and charts
    await expect(tab.result).toBeVisible({ timeout: 120_000 });
    await expect(tab.throughput).toHaveText(/^[\d.]+[kM]? ops\/s$/);
    expect(Number((await tab.throughput.textContent())!.replace(/[^\d.]/g, ''))).toBeGreaterThan(0);
    await expect(tab.verdict).toHaveText(/valid|invalid/);
    await expect(tab.latencyTable.getByRole('row', { name: /^read/ })).toContainText(/µs|ms/);
    await expect(tab.percentileChart.locator('canvas')).toHaveCount(1);
    await expect(tab.seriesChart.locator('canvas')).toHaveCount(1);
    await expect(tab.shards.getByRole('row')).toHaveCount(3); // header + 2 primaries
    await saveScreenshot(page, 'benchmark-result', testInfo);
    await expectAccessible(page, 'benchmark-result', testInfo);

    // the run is listed, and its page can be opened again
    await page.getByRole('link', { name: '← All benchmarks' }).click();
    await expect(page.getByTestId('bench-runs').getByRole('row')).toHaveCount(2);
  });
});
