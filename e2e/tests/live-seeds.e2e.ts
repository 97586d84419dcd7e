import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import type { StrataApi } from '../support/api';

/** What the Overview shows: the seeds, the ioredis snippet's nodes, the shard rows and each shard's primary. */
async function shown(page: Page) {
  const seeds = (await page.getByRole('list', { name: 'Seeds' }).locator('li').allInnerTexts()).map((s) => s.trim()).sort();
  const snippet = await page.getByRole('region', { name: 'ioredis snippet' }).innerText();
  const snippetNodes = [...snippet.matchAll(/\{ host: "([^"]+)", port: (\d+) \}/g)].map((m) => `${m[1]}:${m[2]}`).sort();
  const rows = await page.getByTestId('shard-row').count();
  const primaries = (await page.getByTestId('instance').filter({ has: page.getByTestId('instance-role').getByText('Primary', { exact: true }) }).getByTestId('instance-address').allInnerTexts()).sort();
  return { seeds, snippetNodes, rows, primaries };
}

/** The same, from the API. */
async function truth(api: StrataApi, id: string) {
  const [conn, topo] = await Promise.all([api.getConnection(id), api.topology(id)]);
  const seeds = [...conn.seeds].sort();
  return {
    seeds,
    // The stable endpoint first in the snippet, then every primary.
    snippetNodes: [...(conn.endpoint ? [`${conn.endpoint.host}:${conn.endpoint.port}`] : []), ...seeds].sort(),
    rows: topo.shards.length,
    primaries: topo.shards.flatMap((s) => s.instances.filter((i) => i.role === 'primary').map((i) => i.address)).sort(),
  };
}

test('seeds, snippets and topology follow a 4 -> 3 reshard and a killed primary, matching the API within 2 s', async ({ signedInPage: page, api, createCluster, clusterPage }, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-live-seeds'), shards: 4, replicasPerShard: 1, memoryMbPerShard: 32 }, { waitReady: true });
  await clusterPage.goto(cluster.id);
  await page.getByRole('tab', { name: 'ioredis' }).click();
  await expect.poll(async () => (await shown(page)).rows).toBe(4);
  expect(await shown(page)).toEqual(await truth(api, cluster.id));

  // 4 -> 3 through the API while the page stays open: the removed shard's primary leaves the seeds and the snippet.
  const before = await truth(api, cluster.id);
  await api.changeCluster(cluster.id, { shards: 3 });
  await expect.poll(async () => (await api.getCluster(cluster.id)).spec.shards).toBe(3);
  await api.waitForPhase(cluster.id, 'ready', 60_000);
  await expect.poll(async () => (await truth(api, cluster.id)).seeds.length, { timeout: 30_000 }).toBe(3);
  const afterShrink = await truth(api, cluster.id);
  expect(before.seeds.filter((s) => !afterShrink.seeds.includes(s))).toHaveLength(1);
  await expect.poll(() => shown(page), { timeout: 2000, intervals: [100] }).toEqual(afterShrink);
  await saveScreenshot(page, 'live-seeds-after-shrink', testInfo);

  // A primary killed: once the API names its replica as primary, so does the page.
  const victim = (await api.topology(cluster.id)).shards.find((s) => s.index === 1)!.instances.find((i) => i.role === 'primary')!;
  const pid = Number(execFileSync('pgrep', ['-f', `redis-server ${victim.address}`], { encoding: 'utf8' }).trim());
  process.kill(pid, 'SIGKILL');
  await expect.poll(async () => (await truth(api, cluster.id)).seeds.includes(victim.address), { timeout: 30_000, intervals: [100] }).toBe(false);
  const afterKill = await truth(api, cluster.id);
  await expect.poll(() => shown(page), { timeout: 2000, intervals: [100] }).toEqual(afterKill);
  await saveScreenshot(page, 'live-seeds-after-kill', testInfo);
  await api.waitForPhase(cluster.id, 'ready', 60_000);
});
