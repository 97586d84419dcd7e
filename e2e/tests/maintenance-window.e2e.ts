import { test, expect, uniqueName } from '../support/fixtures';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

test('Settings: a maintenance window is set at once; a restart asked for it waits, says when it starts, and can be cancelled', async ({
  signedInPage: page, api, createCluster, clusterPage,
}) => {
  const cluster = await createCluster({ name: uniqueName('e2e-mw'), shards: 1, replicasPerShard: 1, memoryMbPerShard: 64 }, { waitReady: true });
  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Settings');
  const panel = page.getByTestId('maintenance-window-panel');
  await expect(panel.getByTestId('maintenance-window-now')).toContainText('None');
  // Three days from now (closed now), at 02:00 UTC for 2 hours.
  const day = WEEKDAYS[(new Date(Date.now() + 3 * 86_400_000).getUTCDay() + 6) % 7]!;
  await panel.getByLabel('Day (UTC)').selectOption(day);
  await panel.getByLabel('Starts at (UTC)').fill('02:00');
  await panel.getByLabel('Duration').selectOption('120');
  await panel.getByRole('button', { name: 'Set window' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Maintenance window set' })).toBeVisible();
  await expect(panel.getByTestId('maintenance-window-now')).toContainText(`${day[0]!.toUpperCase()}${day.slice(1)} 02:00-04:00 UTC`);
  expect((await api.getCluster(cluster.id)).spec.maintenanceWindow).toEqual({ dayOfWeek: day, startTime: '02:00', durationMinutes: 120 });
  expect((await api.clusterOperations(cluster.id)).map((o) => o.kind)).toEqual(['create-cluster']);

  await page.getByTestId('restart-panel').getByRole('button', { name: 'Restart all engines' }).click();
  const dialog = page.getByTestId('restart-confirm');
  await expect(dialog.getByTestId('restart-when')).toContainText('In the maintenance window');
  await dialog.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'waits for the maintenance window' })).toBeVisible();
  const waiting = page.getByTestId('operation-starts-at');
  await expect(waiting).toContainText('Waiting for the maintenance window: starts', { timeout: 15_000 });
  const op = (await api.clusterOperations(cluster.id)).find((o) => o.kind === 'restart-cluster')!;
  expect(op.state).toBe('pending');

  await waiting.getByRole('button', { name: 'Cancel restart' }).click();
  await expect.poll(async () => (await api.clusterOperations(cluster.id)).find((o) => o.id === op.id)?.state).toBe('cancelled');
  await expect(waiting).toHaveCount(0);
});
