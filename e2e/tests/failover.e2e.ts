import { execFileSync } from 'node:child_process';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('a killed primary: the page shows degraded with what Strata does, then the failover with its window without writes', async ({
  signedInPage: page, api, createCluster, clusterPage,
}, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-failover'), shards: 3, replicasPerShard: 1 }, { waitReady: true });
  await clusterPage.goto(cluster.id);
  await expect(clusterPage.topology.locator('[data-health="healthy"]')).toHaveCount(6, { timeout: 30_000 });
  const topology = await api.topology(cluster.id);
  const victim = topology.shards[1]!.instances.find((i) => i.role === 'primary')!;
  const pid = Number(execFileSync('pgrep', ['-f', `redis-server ${victim.address}`], { encoding: 'utf8' }).trim());
  process.kill(pid, 'SIGKILL');

  // The failover completes; the instance that was primary is listed as a replica that Strata will move back.
  await clusterPage.openTab('Activity');
  const failover = page.getByTestId('event').filter({ has: page.locator('[data-testid="write-window"]') }).first();
  await expect(failover).toBeVisible({ timeout: 30_000 });
  await expect(failover).toContainText('Failover');
  await expect(failover).toContainText('process-crash');
  await expect(failover.getByTestId('write-window')).toHaveText(/\d[\d,]* ms without writes/);
  await expect(page.locator('[data-event-type="instance-restarted"]').first()).toBeVisible();
  await saveScreenshot(page, 'cluster-events-after-failover', testInfo);
  await clusterPage.openTab('Overview');
  await expect(clusterPage.status).toHaveClusterStatus('Ready', { timeout: 30_000 });
});
