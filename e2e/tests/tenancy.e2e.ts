import { test, expect, signInByApi, uniqueName } from '../support/fixtures';
import { StrataApi } from '../support/api';

test('a user of another organization does not see the cluster', async ({ page, stack, api, createCluster, clustersPage, clusterPage, consoleGuard }) => {
  // Opening another organization's cluster by its URL: the API answers 404, the page says "not found".
  consoleGuard.allow({ url: /\/v1\/clusters\/[0-9a-f-]{36}$/, method: 'GET', status: 404 });
  const cluster = await createCluster({ name: uniqueName('e2e-private') });

  const orgName = uniqueName('e2e-org');
  const { organization, token } = await api.createOrganization(orgName);
  const email = `${uniqueName('user')}@example.test`;
  const password = 'correct-horse-battery';
  await new StrataApi(stack.url, token).createUser(email, password);

  await signInByApi(page, email, password);
  await clustersPage.goto();
  await expect(clustersPage.shell.organization).toContainText(organization.name);
  await expect(clustersPage.emptyState).toBeVisible();
  await expect(clustersPage.row(cluster.name)).toHaveCount(0);

  await clusterPage.goto(cluster.id);
  await expect(page.getByRole('heading', { name: 'Cluster not found' })).toBeVisible();
  await expect(page.getByText(cluster.name)).toHaveCount(0);
});
