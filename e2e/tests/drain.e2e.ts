import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('a platform admin drains a node from the nodes page: it empties while the cluster stays ready, then undrains', async ({
  signedInPage: page, api, createCluster, nodesPage,
}, testInfo) => {
  test.setTimeout(120_000);
  const cluster = await createCluster({ name: uniqueName('e2e-drain'), shards: 2, replicasPerShard: 1 }, { waitReady: true });
  const topology = await api.topology(cluster.id);
  const primary = topology.shards[0]!.instances.find((i) => i.role === 'primary')!;

  await nodesPage.goto();
  const row = nodesPage.row(primary.nodeName);
  try {
    await row.getByRole('button', { name: 'Drain' }).click();
    // One confirmation saying what it does: how much moves, that primaries switch over.
    const dialog = page.getByRole('dialog', { name: `Drain ${primary.nodeName}?` });
    await expect(dialog).toContainText(/switch over to replicas on other nodes/);
    await expect(dialog).toContainText(/no acknowledged write is lost/);
    await saveScreenshot(page, 'nodes-drain-confirm', testInfo);
    await dialog.getByRole('button', { name: new RegExp(`^Move \\d+ instances? off ${primary.nodeName}$`) }).click();
    await expect(page.getByTestId('toast').filter({ hasText: `${primary.nodeName} is draining` })).toBeVisible();
    await expect(row.getByTestId('node-draining')).toBeVisible();
    // The node empties: its primary switched over, every copy rebuilt on another node.
    await expect(row.getByTestId('node-draining')).toHaveText('Drained', { timeout: 90_000 });
    await saveScreenshot(page, 'nodes-drained', testInfo);
    const after = await api.waitForPhase(cluster.id, 'ready');
    expect(after.status.phase).toBe('ready');
    const moved = await api.topology(cluster.id);
    expect(moved.shards.flatMap((s) => s.instances).some((i) => i.nodeId === primary.nodeId)).toBe(false);
  } finally {
    // Undrain from the page returns the node to placement for the other tests.
    const undrain = row.getByRole('button', { name: 'Undrain' });
    if (await undrain.isVisible()) await undrain.click();
    else await api.undrainNode(primary.nodeId);
  }
  await expect(row.getByTestId('node-draining')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: `${primary.nodeName} takes new instances again` })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Drain' })).toBeVisible();
});
