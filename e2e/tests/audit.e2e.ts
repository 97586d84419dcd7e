import { readFileSync } from 'node:fs';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

test('the audit log reads as sentences, marks dry runs, records sign-ins and failed ones, filters by who/what/resource/time and exports CSV', async ({ signedInPage: page, api, stack, createCluster }, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-audit'), shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }, { waitReady: true });
  await api.planChange(cluster.id, { shards: 2 });
  const wrong = await page.context().request.post('/v1/session', { data: { email: stack.adminEmail, password: 'not-the-password' }, failOnStatusCode: false });
  expect(wrong.status()).toBe(401);

  await page.goto('/settings/access');
  const log = page.getByRole('table', { name: 'Audit log' });
  const entries = log.getByTestId('audit-entry');
  await expect(entries.first()).toBeVisible();
  // Sentences with the resource's name; the dry run marked as such.
  const dry = entries.filter({ has: page.getByTestId('audit-dry-run') }).filter({ hasText: cluster.name }).first();
  await expect(dry).toContainText(`Changed cluster ${cluster.name}`);
  await expect(dry).toContainText('Dry run: nothing changed');
  await expect(entries.filter({ hasText: `Created cluster ${cluster.name}` })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Failed to sign in' }).first()).toContainText('refused (401)');

  // Filters: action, resource, who, time.
  const filters = page.getByRole('search', { name: 'Filter the audit log' });
  await filters.getByLabel('Action').selectOption({ label: 'Failed to sign in' });
  await expect.poll(async () => [...new Set(await entries.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind'))))]).toEqual(['session.sign-in-failed']);
  await filters.getByLabel('Action').selectOption('');
  await filters.getByLabel('Resource').fill(cluster.name);
  await expect.poll(async () => (await entries.allInnerTexts()).every((t) => t.includes(cluster.name))).toBe(true);
  await expect(entries).toHaveCount(2); // created, and the dry run
  await saveScreenshot(page, 'audit-filtered', testInfo);

  // The export holds what the filters show.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export these entries (CSV)' }).click();
  const csv = readFileSync(await (await download).path()!, 'utf8').trim().split('\r\n');
  expect(csv[0]).toBe('time,actor,actor_type,kind,summary,resource_type,resource_id,resource_name,dry_run,status,action,detail');
  expect(csv).toHaveLength(3);
  expect(csv.slice(1).every((row) => row.includes(cluster.name))).toBe(true);
  expect(csv.some((row) => row.includes(',cluster.change,') && row.includes(',true,200,'))).toBe(true);
  await expect(page.getByTestId('toast').filter({ hasText: 'Exported 2 audit entries as CSV' })).toBeVisible();

  await filters.getByLabel('Who').fill('nobody-by-this-name');
  await expect(log).toContainText('No entry matches these filters.');
  await filters.getByLabel('Who').fill('');
  await filters.getByLabel('From').fill('2099-01-01T00:00');
  await expect(log).toContainText('No entry matches these filters.');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(entries.first()).toBeVisible();

  // The filters fit a phone and a tablet.
  for (const width of [390, 768]) {
    await page.setViewportSize({ width, height: 900 });
    const box = (await filters.boundingBox())!;
    expect(box.x + box.width, `filters at ${width} px`).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    await saveScreenshot(page, `audit-${width}`, testInfo);
  }
});
