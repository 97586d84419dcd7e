import { test, expect, saveScreenshot, signInByApi, uniqueName } from '../support/fixtures';
import { StrataApi } from '../support/api';

test('a user of another organization sees only the nodes its clusters use, with its own instances and no one else\'s usage', async ({
  page, stack, api, createCluster, nodesPage,
}, testInfo) => {
  // The platform's own clusters, on every node.
  await createCluster({ name: uniqueName('e2e-platform'), shards: stack.nodes, replicasPerShard: 0 }, { waitReady: true });
  const fleet = await api.nodes();
  expect(fleet.scope).toBe('fleet');

  const { token } = await api.createOrganization(uniqueName('e2e-tenant'));
  const tenant = new StrataApi(stack.url, token);
  const email = `${uniqueName('tenant')}@example.test`;
  await tenant.createUser(email, 'correct-horse-battery');
  const { cluster } = await tenant.createCluster({ name: 'tenant-cache', shards: 1, replicasPerShard: 0, memoryMbPerShard: 64 });
  try {
    await tenant.waitForPhase(cluster.id, 'ready');

    // The API: one node, no capacity, only the tenant's instance.
    const mine = await tenant.nodes();
    expect(mine.scope).toBe('organization');
    expect(mine.items).toHaveLength(1);
    const node = mine.items[0]!;
    expect(node.capacity).toBeNull();
    expect(node.instances.map((i) => i.clusterName)).toEqual(['tenant-cache']);
    const others = fleet.items.filter((n) => n.id !== node.id).map((n) => n.address);

    // The page: the same, and no other node's address or the fleet's usage.
    await signInByApi(page, email, 'correct-horse-battery');
    await nodesPage.goto();
    await expect(nodesPage.rows).toHaveCount(1);
    await expect(nodesPage.rows.first()).toContainText(node.address);
    await expect(nodesPage.rows.first().getByTestId('own-memory')).toHaveText('64 MB');
    const text = await page.locator('main').innerText();
    for (const addr of others) expect(text).not.toContain(addr);
    expect(text).not.toMatch(/ of \d+(\.\d)? GB/);
    expect(text).not.toContain('e2e-platform');
    expect(text).not.toContain('CPU');
    await saveScreenshot(page, 'nodes-tenant-view', testInfo);

    // The wizard tells the tenant what fits, never how much the whole fleet has free (other tenants' usage).
    await page.goto('/clusters/new');
    await page.getByLabel('Cluster name', { exact: true }).fill('tenant-two');
    await expect(page.getByTestId('summary-memory')).toBeVisible();
    const wizardText = await page.locator('main').innerText();
    expect(wizardText).not.toMatch(/free on the nodes|nodes have .* free/);
    for (const addr of [...others, node.address]) expect(wizardText).not.toContain(addr);
  } finally {
    await tenant.deleteCluster(cluster.id);
  }
});
