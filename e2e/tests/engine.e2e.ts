import { test, expect, uniqueName } from '../support/fixtures';

test.describe('the engine menu of the create wizard', () => {
  test('Valkey 8 chosen in the wizard: the cluster runs it and its page says so', async ({ page, signedInPage, wizard, clusterPage, api }) => {
    void signedInPage;
    await wizard.goto();
    const name = uniqueName('e2e-valkey');
    await expect(wizard.engine).toHaveValue('7');
    await wizard.fill({ name, shards: 1, replicasPerShard: 0, memory: '32 MB', engine: 'Valkey 8' });
    await expect(page.getByText('the open-source fork of Redis 7.2')).toBeVisible();
    await wizard.submit.click();
    await expect(clusterPage.heading(name)).toBeVisible();
    const id = page.url().split('/clusters/')[1]!;
    try {
      await expect(clusterPage.status).toHaveClusterStatus('Ready', { timeout: 60_000 });
      expect((await api.getCluster(id)).spec.engineVersion).toBe('valkey-8');
      await expect(page.locator('.spec-line')).toContainText('Valkey 8');
    } finally {
      await api.deleteCluster(id);
    }
  });
});
