import { test, expect, expectAccessible, saveScreenshot, signInByApi, uniqueName } from '../support/fixtures';
import { StrataApi } from '../support/api';

// Issue 11: the Access page manages API tokens (secret shown once, usable at once, with its last
// use, revocable), users (added through the form) and roles, and shows the audit log: one entry per change.
test.describe('access page', () => {
  test('an admin adds a user, creates a read-only token, uses it, revokes it, changes a role and sees each change audited once', async ({ page, stack, signedInPage }, testInfo) => {
    void signedInPage;
    const api = new StrataApi(stack.url, stack.adminToken);
    const email = `${uniqueName('viewer')}@example.test`;

    await page.goto('/settings/access');
    await expect(page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
    // A user through the "Add user" form (member by default).
    const addUser = page.getByRole('form', { name: 'Add user' });
    await addUser.getByLabel('Email').fill(email);
    await addUser.getByLabel('Initial password').fill('correct-horse-battery');
    await addUser.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue('member');
    const user = (await api.users()).find((u) => u.email === email)!;
    expect(user.role).toBe('member');
    const name = uniqueName('ci');
    const form = page.getByRole('form', { name: 'Create API token' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Create token' }).click();

    const secret = (await page.getByTestId('new-token-secret').textContent())!.trim();
    expect(secret).toMatch(/^stk_/);
    // The secret works against the API with exactly its scope.
    await expect.poll(async () => (await fetch(`${stack.url}/v1/clusters`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const write = await fetch(`${stack.url}/v1/clusters`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' });
    expect(write.status).toBe(403);

    // After a reload the token shows its last use (it was "never" before the calls above).
    await page.reload();
    const tokens = page.getByRole('table', { name: 'API tokens' });
    const row = tokens.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('clusters:read');
    await expect(row.getByRole('cell').nth(3)).not.toHaveText('never');
    await expect(row.getByRole('cell').nth(3)).toHaveText(/ago|now|s$/);
    await expectAccessible(page, 'access', testInfo);
    await saveScreenshot(page, 'access', testInfo);

    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await expect(row).toContainText('revoked');
    await expect.poll(async () => (await fetch(`${stack.url}/v1/clusters`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);

    // Roles: make the new user a viewer.
    await page.getByRole('combobox', { name: `Role of ${email}` }).selectOption('viewer');
    await expect(page.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue('viewer');
    const audit = page.getByRole('table', { name: 'Audit log' });
    await expect(audit).toContainText('PATCH /v1/users/:id', { timeout: 10_000 });
    await expect(audit).toContainText('DELETE /v1/tokens/:id');
    // Exactly one row per change: the user's creation and its role change (no duplicates).
    await page.reload();
    const userRows = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: email });
    await expect(userRows).toHaveCount(2);
    await expect(userRows.filter({ hasText: 'POST /v1/users' })).toHaveCount(1);
    await expect(userRows.filter({ hasText: `Added user ${email}` })).toHaveCount(1);
    await expect(userRows.filter({ hasText: `Changed user ${email}` })).toHaveCount(1);
    await expect(userRows.filter({ hasText: 'PATCH /v1/users/:id' })).toHaveCount(1);
    expect((await api.audit()).filter((e) => e.targetId === user.id).map((e) => e.action).sort()).toEqual(['PATCH /v1/users/:id', 'POST /v1/users']);
    // Status and detail (the body without secrets) are shown.
    const patchRow = userRows.filter({ hasText: 'PATCH /v1/users/:id' });
    await expect(patchRow.getByRole('cell').nth(4)).toHaveText('done (200)');
    await expect(patchRow.getByRole('cell').nth(5)).toHaveText('{"role":"viewer"}');
    await expect(userRows.filter({ hasText: 'POST /v1/users' })).not.toContainText('correct-horse-battery');
  });

  test('the audit log pages: older entries load on demand', async ({ page, stack, signedInPage }) => {
    void signedInPage;
    const api = new StrataApi(stack.url, stack.adminToken);
    // More changes than one page (50): a user, then 55 node join tokens (cheap: no password to hash).
    const first = `${uniqueName('paged')}@example.test`;
    await api.createUser(first, 'correct-horse-battery');
    await Promise.all(Array.from({ length: 55 }, () => api.createJoinToken()));

    await page.goto('/settings/access');
    const audit = page.getByRole('table', { name: 'Audit log' });
    await expect(audit.getByRole('row')).toHaveCount(51); // header + one page
    await expect(audit.getByRole('row').filter({ hasText: first })).toHaveCount(0);
    await page.getByRole('button', { name: 'Show older entries' }).click();
    await expect(audit.getByRole('row').filter({ hasText: first })).toHaveCount(1);
    expect(await audit.getByRole('row').count()).toBeGreaterThan(56);
  });

  test('a viewer may only create read tokens and sees no users or audit log', async ({ page, stack }) => {
    const email = `${uniqueName('viewer')}@example.test`;
    const api = new StrataApi(stack.url, stack.adminToken);
    const user = await api.createUser(email, 'correct-horse-battery');
    expect((await api.setRole(user.id, 'viewer')).role).toBe('viewer');
    await signInByApi(page, email, 'correct-horse-battery');
    await page.goto('/settings/access');
    await expect(page.getByText('Your role: viewer')).toBeVisible();
    const form = page.getByRole('form', { name: 'Create API token' });
    await expect(form.getByRole('checkbox')).toHaveCount(1);
    await expect(page.getByRole('table', { name: 'Users' })).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Audit log' })).toHaveCount(0);
  });
});
