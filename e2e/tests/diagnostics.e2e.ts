import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('Diagnostics: the slow log shows a planted slow command, a key scan shows the planted big key, hot keys say why not, the heat view has each shard', async ({
  signedInPage: page, api, createCluster, clusterPage,
}, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-diag'), shards: 2, replicasPerShard: 0, memoryMbPerShard: 64 }, { waitReady: true });
  const u = new URL((await api.getConnection(cluster.id)).uri);
  const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) },
    slotsRefreshTimeout: 5000,
  });
  try {
    await Promise.all(Array.from({ length: 500 }, (_, i) => client.set(`e2e:small:${i}`, 'v')));
    await client.set('e2e:big', 'x'.repeat(3 << 20));
    // Slower than slowlog-log-slower-than (10 ms).
    await client.eval('local i = 0 while i < 4000000 do i = i + 1 end return i', 1, 'e2e:slow');
  } finally {
    client.disconnect();
  }

  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Diagnostics');
  const slowlog = page.getByTestId('slowlog-panel');
  const evalRow = slowlog.getByTestId('slowlog-row').filter({ hasText: 'EVAL' });
  await expect(evalRow).toHaveCount(1, { timeout: 15_000 });
  await expect(evalRow).toContainText('e2e:slow');
  await expect(evalRow).toContainText('primary');

  await expect(page.getByTestId('heat-memory')).toHaveCount(2);
  const keys = page.getByTestId('keyscan-panel');
  await expect(keys.getByTestId('hot-keys-unavailable')).toContainText('noeviction');
  await keys.getByRole('button', { name: 'Scan keys' }).click();
  await expect(keys.getByTestId('keyscan-result')).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(keys.getByTestId('keyscan-shard')).toHaveCount(2);
  await expect(keys.getByTestId('big-key').filter({ hasText: 'e2e:big' })).toContainText(/string · 3\.\d MB/);
  await saveScreenshot(page, 'diagnostics', testInfo);

  // Reset empties the slow log.
  await slowlog.getByRole('button', { name: 'Reset' }).click();
  await page.getByTestId('slowlog-reset-confirm').getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Slow log emptied on 2 instances' })).toBeVisible();
  await expect(evalRow).toHaveCount(0);
});
