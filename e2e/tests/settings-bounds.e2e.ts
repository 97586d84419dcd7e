import { Cluster as RedisCluster } from 'ioredis';
import { ApiProblem } from '../support/api';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import { SettingsTab } from '../support/pages/SettingsTab';

test.describe('Settings offers what the nodes can hold, as the wizard does', () => {
  for (const vp of [{ width: 390, height: 844 }, { width: 768, height: 1024 }, { width: 1440, height: 900 }]) {
  test(`memory, replicas and shards bounded by the change planner, with the wizard's messages at the fields, at ${vp.width} px`, async ({ signedInPage: page, api, createCluster, clusterPage }, testInfo) => {
    await page.setViewportSize(vp);
    const cluster = await createCluster({ name: uniqueName('e2e-bounds'), shards: 2, replicasPerShard: 0, memoryMbPerShard: 256 }, { waitReady: true });
    const bounds = await api.capacity({ clusterId: cluster.id, replicasPerShard: 0, memoryMbPerShard: 256 });
    await clusterPage.goto(cluster.id);
    await clusterPage.openTab('Settings');
    const settings = new SettingsTab(page);

    // Memory: nothing beyond what this cluster's change can take (never 64 GB on 2 GB nodes).
    await expect.poll(async () => Math.max(...await settings.memory.locator('option').evaluateAll((os) => os.map((o) => Number((o as HTMLOptionElement).value)))))
      .toBeLessThanOrEqual(bounds.maxMemoryMbPerShard);
    await expect(settings.memory.locator('option[value="65536"]')).toHaveCount(0);
    // Replicas: up to one per other online node, and more is refused at the field in the wizard's words.
    await expect(settings.replicas).toHaveAttribute('max', String(bounds.maxReplicasPerShard));
    await settings.replicas.fill(String(bounds.onlineNodes + 2));
    await expect(settings.replicas).toShowFieldError(new RegExp(`${bounds.onlineNodes + 2} replicas per shard need ${bounds.onlineNodes + 3} online nodes .* At most ${bounds.maxReplicasPerShard} replicas?\\.`));
    await expect(settings.previewButton).toBeDisabled();
    await settings.replicas.fill('0');
    // Shards: the most that fit, named at the field.
    await settings.shards.fill('64');
    await expect(settings.shards).toShowFieldError(/At most \d+ shards? of this size fit\./);
    const max = Number(await settings.shards.getAttribute('max'));
    expect(max).toBeLessThan(64);
    expect(max).toBe((await api.capacity({ clusterId: cluster.id, replicasPerShard: 0, memoryMbPerShard: 256 })).maxShards);
    await saveScreenshot(page, `settings-bounds-${vp.width}`, testInfo);
    await expect(page.getByTestId('settings-error')).toHaveCount(0);

    // The server speaks in the user's unit: 64 GB, not 65536 MB.
    const refused = await api.planChange(cluster.id, { memoryMbPerShard: 65536 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    const problem = (refused as ApiProblem).problem!;
    expect(problem.errors?.[0]).toMatchObject({ field: 'memoryMbPerShard' });
    expect(problem.errors?.[0]?.message).toMatch(/64 GB/);
    expect(problem.errors?.[0]?.message).not.toMatch(/65536/);
  });
  }

  test("the server's refusal shows once, at the field it names", async ({ signedInPage: page, api, createCluster, clusterPage, consoleGuard }) => {
    const cluster = await createCluster({ name: uniqueName('e2e-full'), shards: 1, replicasPerShard: 0, memoryMbPerShard: 64 }, { waitReady: true });
    const conn = await api.getConnection(cluster.id);
    const redis = new RedisCluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
      redisOptions: { username: conn.username, password: conn.password },
    });
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 44; i += 4) await Promise.all([0, 1, 2, 3].map((k) => redis.set(`blob:${i + k}`, mb)));
    redis.disconnect();
    // The planner judges data by the live metrics: wait until they show it.
    await expect.poll(async () => (await api.planChange(cluster.id, { memoryMbPerShard: 32 }).then(() => 'planned', (e: ApiProblem) => e.problem?.code)), { timeout: 15_000 })
      .toBe('does_not_fit');

    consoleGuard.allow({ url: new RegExp(`/v1/clusters/${cluster.id}\\?dryRun`), method: 'PATCH', status: 422 });
    await clusterPage.goto(cluster.id);
    await clusterPage.openTab('Settings');
    const settings = new SettingsTab(page);
    await settings.memory.selectOption({ label: '32 MB' });
    await settings.previewButton.click();
    await expect(settings.memory).toShowFieldError(/a shard holds \d+ MB; 32 MB per shard leaves less than 10% headroom/);
    await expect(page.getByText(/a shard holds \d+ MB/)).toHaveCount(1);
    await expect(settings.error).toHaveCount(0);
  });
});
