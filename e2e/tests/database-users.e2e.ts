import { Redis } from 'ioredis';
import { test, expect, expectAccessible, saveScreenshot, uniqueName } from '../support/fixtures';

test('Users: create a read-only user, see its password once, connect with it, pick it in the snippets, delete it', async ({
  signedInPage: page, api, createCluster, clusterPage,
}, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-users'), shards: 1, replicasPerShard: 0 }, { waitReady: true });
  const conn = await api.getConnection(cluster.id);
  const [host, port] = conn.seeds[0]!.split(':');
  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Users');
  await expect(page.getByRole('heading', { name: 'Database users', exact: true })).toBeVisible();

  const form = page.getByRole('form', { name: 'Add database user' });
  await test.step('bad input is named at its field, nothing created', async () => {
    await form.getByLabel('Name').fill('has space');
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('table', { name: 'Database users' })).toHaveCount(0);
  });

  const password = await test.step('create a read-only user on orders:*: the password is shown once', async () => {
    await form.getByLabel('Name').fill('reader');
    await form.getByLabel('Rights').selectOption({ label: 'Read only' });
    await form.getByLabel('Key patterns').fill('orders:*');
    await form.getByRole('button', { name: 'Add user' }).click();
    const shown = page.getByTestId('database-user-password');
    await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
    const row = page.getByTestId('database-user-reader');
    await expect(row).toContainText('Read only');
    await expect(row).toContainText('orders:*');
    await expect(row).toContainText('active', { timeout: 20_000 });
    await saveScreenshot(page, 'database-users', testInfo);
    await expectAccessible(page, 'cluster-users', testInfo);
    return (await shown.textContent())!;
  });

  await test.step('the user reads orders:* and gets NOPERM on a write', async () => {
    const c = new Redis({ host, port: Number(port), username: 'reader', password, lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await c.connect();
      await expect(c.set('orders:1', 'x')).rejects.toThrow(/NOPERM/);
      await expect(c.get('customers:1')).rejects.toThrow(/NOPERM/);
    } finally {
      c.disconnect();
    }
  });

  await test.step('after a reload the password is gone; the snippets can use the user', async () => {
    await page.reload();
    await expect(page.getByTestId('database-user-reader')).toBeVisible();
    await expect(page.getByTestId('database-user-password')).toHaveCount(0);
    await expect(page.getByText(password)).toHaveCount(0);
    await clusterPage.openTab('Overview');
    await page.getByTestId('snippet-user').selectOption('reader');
    await expect(page.getByRole('region', { name: 'redis-cli snippet' })).toContainText("--user reader --pass '<password of reader>'");
  });

  await test.step('delete asks first, then the user is gone', async () => {
    await clusterPage.openTab('Users');
    await page.getByRole('button', { name: 'Delete reader' }).click();
    const dialog = page.getByTestId('delete-database-user');
    await expect(dialog).toContainText('closes its open connections');
    await expectAccessible(page, 'delete-database-user-dialog', testInfo);
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByTestId('database-user-reader')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No database users yet' })).toBeVisible();
    await expect.poll(async () => {
      const c = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 0, enableReadyCheck: false, retryStrategy: () => null });
      c.on('error', () => {});
      try {
        await c.connect();
        return await c.call('AUTH', 'reader', password);
      } catch (err) {
        return (err as Error).message;
      } finally {
        c.disconnect();
      }
    }, { timeout: 20_000 }).toMatch(/WRONGPASS/);
  });
});
