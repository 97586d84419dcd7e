import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName, expectAccessible } from '../support/fixtures';
import { MonitoringTab } from '../support/pages/MonitoringTab';

test.describe('live monitoring', () => {
  test('the Monitoring chart shows non-zero QPS within 3 seconds of load starting', async ({ signedInPage: page, api, createCluster, clustersPage, nodesPage }, testInfo) => {
    const cluster = await createCluster({ name: uniqueName('e2e-mon'), shards: 2, replicasPerShard: 0 }, { waitReady: true });
    const conn = await api.getConnection(cluster.id);
    const u = new URL(conn.uri);
    const monitoring = new MonitoringTab(page);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } });
    let stop = false;
    let load: Promise<void> | undefined;
    try {
      await client.set('warm', '1');
      await monitoring.goto(cluster.id);
      await expect(monitoring.streamState).toHaveAttribute('data-state', 'open');
      // Idle: a couple of seconds of samples with nothing but the warm-up write.
      await page.waitForTimeout(2500);
      expect((await monitoring.chartOps()) ?? 0).toBeLessThan(5);

      const started = Date.now();
      load = (async () => {
        let n = 0;
        while (!stop) {
          await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? client.set(`k${(n + i) % 200}`, 'v') : client.get(`k${(n + i) % 200}`))));
          n += 10;
        }
      })();
      await expect.poll(() => monitoring.chartOps(), { timeout: 3000, intervals: [100] }).toBeGreaterThan(50);
      const elapsed = Date.now() - started;
      testInfo.annotations.push({ type: 'qps-visible-after-ms', description: String(elapsed) });
      expect(elapsed).toBeLessThanOrEqual(3000);
      await expect(monitoring.opsNow).toHaveText(/[1-9]/);
      await expect(monitoring.shardCells).toHaveCount(2);
      await expect(monitoring.hottestShard).toContainText(/Hottest: shard [12] /);
      // The chart keeps moving: its newest second advances.
      const last = Number(await monitoring.opsChart.getAttribute('data-last-ts'));
      await expect.poll(async () => Number(await monitoring.opsChart.getAttribute('data-last-ts')), { timeout: 5000 }).toBeGreaterThan(last);
      // Keys, hit ratio, evictions, network, CPU and replication lag beside ops and latency, each with its latest value.
      // The load writes k0..k199 with a last digit of 0, 3, 6 or 9 (80 keys), besides 'warm'.
      await expect.poll(async () => Number(await page.getByTestId('chart-keys').getAttribute('data-latest')), { timeout: 5000 }).toBe(81);
      await expect(page.getByTestId('keys-now')).toHaveText('81');
      // Every GET is of a key the load never sets (last digit 1, 2, 4, 5, 7 or 8): lookups, all missed.
      await expect(page.getByTestId('chart-hit-ratio')).toHaveAttribute('data-latest', '0', { timeout: 5000 });
      await expect(page.getByTestId('chart-hit-ratio').getByRole('list', { name: 'Legend' })).toContainText('0%');
      await expect.poll(async () => Number(await page.getByTestId('chart-network').getAttribute('data-latest')), { timeout: 5000 }).toBeGreaterThan(0);
      await expect.poll(async () => Number(await page.getByTestId('chart-cpu').getAttribute('data-latest')), { timeout: 5000 }).toBeGreaterThan(0);
      for (const id of ['chart-evictions', 'chart-repl-lag']) await expect(page.getByTestId(id)).toBeVisible();
      await expect(page.getByTestId('chart-ops').getByRole('list', { name: 'Legend' })).toContainText(/total[\d.,k ]+ops\/s/);
      await saveScreenshot(page, 'monitoring-live', testInfo);
      await expectAccessible(page, 'monitoring', testInfo);

      await test.step('history ranges read the stored series', async () => {
        await monitoring.range('1 h').click();
        await expect(monitoring.range('1 h')).toHaveAttribute('aria-checked', 'true');
        await expect(page.getByText(/One point per 10 s, from 1-second history/)).toBeVisible();
        await expect.poll(() => monitoring.chartOps(), { timeout: 15_000 }).toBeGreaterThan(0);
        await monitoring.range('7 d').click();
        await expect(page.getByText(/from 1-minute rollups/)).toBeVisible();
      });

      await test.step('the clusters list shows the current ops/s, the nodes page CPU and memory', async () => {
        await clustersPage.goto();
        const row = page.getByTestId('cluster-row').filter({ hasText: cluster.name });
        await expect(row.getByTestId('cluster-ops')).toContainText(/[1-9]/, { timeout: 6000 });
        await nodesPage.goto();
        await expect(page.getByTestId('node-cpu').first()).toHaveText(/CPU \d+%/, { timeout: 6000 });
        await expect(page.getByTestId('node-memory').first()).toContainText(/RAM [\d.]+ [KMG]B of [\d.]+ [KMG]B/);
        await saveScreenshot(page, 'nodes-usage', testInfo);
      });
    } finally {
      stop = true;
      await load?.catch(() => {});
      client.disconnect();
    }
  });
});
