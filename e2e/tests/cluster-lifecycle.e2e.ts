import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test.describe('cluster lifecycle through the console', () => {
  test('sign in, create a 3x1 cluster in the wizard, use it with ioredis, delete it', async ({
    page,
    context,
    stack,
    api,
    signInPage,
    clustersPage,
    wizard,
    clusterPage,
  }, testInfo) => {
    const name = uniqueName('e2e-life');
    let clusterId: string | undefined;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);

    try {
      await test.step('sign in', async () => {
        await signInPage.goto();
        await signInPage.signIn(stack.adminEmail, stack.adminPassword);
        await expect(clustersPage.heading).toBeVisible();
        await expect(clustersPage.shell.user).toContainText(stack.adminEmail);
      });

      await test.step('create a 3x1 cluster through the wizard', async () => {
        await clustersPage.createButton.click();
        await expect(wizard.heading).toBeVisible();
        await wizard.fill({ name, shards: 3, replicasPerShard: 1, memory: '64 MB', durability: 'AOF, every second' });
        await expect(wizard.summaryValue('instances')).toContainText('6');
        await expect(wizard.summaryValue('nodes')).toContainText(`3 of ${stack.nodes} online nodes`);
        await expect(wizard.summaryValue('memory')).toContainText('384 MB');
        await wizard.submit.click();
        await expect(clusterPage.heading(name)).toBeVisible();
        await expect(clusterPage.status).toBeVisible();
        await saveScreenshot(page, 'cluster-provisioning', testInfo);
        clusterId = page.url().split('/clusters/')[1];
        expect(clusterId).toMatch(/^[0-9a-f-]{36}$/);
      });

      await test.step('watch it reach ready without reloading', async () => {
        await expect(clusterPage.status).toHaveClusterStatus('Ready', { timeout: 120_000 });
        await expect(clusterPage.shardRows).toHaveCount(3);
        await expect(clusterPage.topology.getByTestId('instance')).toHaveCount(6);
        await expect(clusterPage.topology.locator('[data-health="healthy"]')).toHaveCount(6, { timeout: 30_000 });
        await saveScreenshot(page, 'cluster-ready', testInfo);
      });

      const uri = await test.step('copy its connection string', async () => {
        await expect(clusterPage.uri).toContainText('••••••••');
        const copied = await clusterPage.copyConnectionUri();
        expect(copied).toMatch(/^rediss?:\/\/[^:]+:[^@]+@[^:]+:\d+$/);
        expect(copied).not.toContain('••••');
        return copied;
      });

      await test.step('a Redis Cluster client using that string writes and reads keys', async () => {
        const u = new URL(uri);
        const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
          redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) },
          slotsRefreshTimeout: 5000,
        });
        try {
          const keys = Array.from({ length: 60 }, (_, i) => `e2e:key:${i}`);
          for (const k of keys) await client.set(k, `value-of-${k}`);
          for (const k of keys) expect(await client.get(k)).toBe(`value-of-${k}`);
          // The keys landed on every shard: the client really used the cluster.
          const masters = client.nodes('master');
          expect(masters).toHaveLength(3);
          const sizes = await Promise.all(masters.map((m) => m.dbsize()));
          expect(sizes.every((n) => n > 0)).toBe(true);
        } finally {
          client.disconnect();
        }
      });

      await test.step('delete it through the UI', async () => {
        await clusterPage.delete(name);
        await expect(clustersPage.heading).toBeVisible();
        await expect(clustersPage.row(name)).toHaveCount(0, { timeout: 120_000 });
        await api.waitForGone(clusterId!);
        clusterId = undefined;
      });
    } finally {
      if (clusterId) await api.deleteCluster(clusterId);
    }
  });

  test('signing out returns to sign-in and protects the pages', async ({ page, signedInPage, clustersPage, signInPage }) => {
    await clustersPage.goto();
    await clustersPage.shell.signOut();
    await expect(signInPage.email).toBeVisible();
    await signedInPage.goto('/nodes');
    await expect(signInPage.email).toBeVisible();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/nodes');
  });

  test('wrong credentials show an error and no session', async ({ signInPage, stack, consoleGuard }) => {
    consoleGuard.allow({ url: /\/v1\/session$/, method: 'POST', status: 401 });
    await signInPage.goto();
    await signInPage.signIn(stack.adminEmail, 'not-the-password');
    await expect(signInPage.error).toContainText('The email or password is incorrect.');
    await expect(signInPage.email).toBeVisible();
  });
});
