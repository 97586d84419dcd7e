import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test.describe('the wizard offers only what the nodes can hold', () => {
  test('memory choices stop at the largest free node; memory no node can hold is refused at the field, with why', async ({
    signedInPage: page, api, wizard, createCluster,
  }, testInfo) => {
    await wizard.goto();
    // No replica: the largest free node bounds the memory of any shard.
    const capacity = await api.capacity({ replicasPerShard: 0 });
    const offered = (await wizard.memory.locator('option').evaluateAll((os) => os.map((o) => Number((o as HTMLOptionElement).value))));
    expect(Math.max(...offered)).toBeLessThanOrEqual(capacity.maxMemoryMbPerShard);
    expect(offered).not.toContain(65536);

    // Replicas are offered up to one per other online node.
    await expect(wizard.replicasPerShard).toHaveAttribute('max', String(capacity.onlineNodes - 1));

    // With a copy on every node the planner's bound is the smallest free node.
    const smallestFree = (await api.capacity({ replicasPerShard: capacity.onlineNodes - 1 })).maxMemoryMbPerShard;
    expect(smallestFree).toBeGreaterThan(0);
    // The biggest size on offer that fits with a replica on every other node.
    const biggest = Math.max(...offered.filter((mb) => mb <= smallestFree));
    const name = uniqueName('e2e-room');
    await wizard.fill({ name, shards: 1, replicasPerShard: capacity.onlineNodes - 1 });
    // With a copy on every node, the menu stops at the smallest free node.
    // (the wizard re-queries the bounds for the new replica count)
    await expect.poll(async () => Math.max(...await wizard.memory.locator('option').evaluateAll((os) => os.map((o) => Number((o as HTMLOptionElement).value)))))
      .toBeLessThanOrEqual(smallestFree);
    await wizard.memory.selectOption(String(biggest));
    await expect(wizard.memory).not.toHaveAttribute('aria-invalid', 'true');

    // Another cluster takes that room on every node while the wizard is open.
    const taken = smallestFree - biggest + 16;
    await createCluster({ name: uniqueName('e2e-hog'), shards: capacity.onlineNodes, replicasPerShard: 0, memoryMbPerShard: Math.max(16, taken) });

    await expect(wizard.memory).toShowFieldError(/No room for .* per shard: .* free node has .*\. Choose .* or less\./);
    await expect(wizard.summary.getByRole('alert')).toContainText('No room for');
    await wizard.submit.click();
    await expect(page).toHaveURL(/\/clusters\/new$/);
    await expect(wizard.memory).toBeFocused();
    await saveScreenshot(page, 'wizard-no-room', testInfo);
    expect(await api.clustersNamed(name)).toHaveLength(0);
  });

  test('too many shards for the room left is marked at the shards field, saying how many fit', async ({ signedInPage: page, api, wizard }) => {
    void page;
    await wizard.goto();
    const capacity = await api.capacity({ replicasPerShard: 0, memoryMbPerShard: 1024 });
    const name = uniqueName('e2e-shards');
    await wizard.fill({ name, shards: 64, replicasPerShard: 0 });
    await wizard.memory.selectOption({ label: '1 GB' });
    expect(capacity.maxShards, 'the test stack holds fewer than 64 shards of 1 GB').toBeLessThan(64);
    await expect(wizard.shards).toShowFieldError(/At most \d+ shards? of this size fit\./);
    // The shards input offers only what fits: its max is the number the message names.
    const max = Number(await wizard.shards.getAttribute('max'));
    expect(max).toBeGreaterThanOrEqual(1);
    expect(max).toBeLessThan(64);
    await expect(wizard.shards).toShowFieldError(new RegExp(`At most ${max} shards? of this size fit`));
    await wizard.submit.click();
    expect(await api.clustersNamed(name)).toHaveLength(0);
  });

  test('a name like "My Cluster" gets a valid suggestion that one click applies', async ({ signedInPage: page, wizard }) => {
    void page;
    await wizard.goto();
    await wizard.name.fill('My Cluster');
    await wizard.name.blur();
    await expect(wizard.name).toShowFieldError(/lowercase letters, digits and dashes/);
    await expect(wizard.name).toHaveAccessibleDescription(/Try my-cluster/);
    await page.getByRole('button', { name: 'my-cluster' }).click();
    await expect(wizard.name).toHaveValue('my-cluster');
    await expect(wizard.name).not.toHaveAttribute('aria-invalid', 'true');
  });
});
