import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { test as base, expect as baseExpect, type Locator, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Cluster, CreateClusterRequest } from '@strata/api';
import { StrataApi } from './api';
import { stackInfo, type StackInfo } from './stack-info';
import { SignInPage } from './pages/SignInPage';
import { ClustersPage } from './pages/ClustersPage';
import { CreateClusterPage } from './pages/CreateClusterPage';
import { ClusterPage } from './pages/ClusterPage';
import { NodesPage } from './pages/NodesPage';
import { ConsoleGuard } from './console-guard';

export const ARTIFACTS = path.join(import.meta.dirname, '..', 'artifacts');

/** A unique, valid cluster/org name: `prefix-<time>-<random>`, ≤ 40 chars. */
export function uniqueName(prefix: string): string {
  const suffix = `${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
  return `${prefix.slice(0, 40 - suffix.length - 1)}-${suffix}`;
}

interface Fixtures {
  /**
   * Fails the test on any console error, uncaught exception or failed request
   * of its pages (auto: every test). Provoked failures are declared with
   * `consoleGuard.allow(...)`; extra pages/contexts join with `watch(page)`.
   */
  consoleGuard: ConsoleGuard;
  stack: StackInfo;
  api: StrataApi;
  /** Clusters created through the API; deleted after the test. */
  createCluster: (body: Partial<CreateClusterRequest> & { name: string }, opts?: { waitReady?: boolean }) => Promise<Cluster>;
  /** A page whose context is signed in as the admin (session cookie via the API). */
  signedInPage: Page;
  signInPage: SignInPage;
  clustersPage: ClustersPage;
  wizard: CreateClusterPage;
  clusterPage: ClusterPage;
  nodesPage: NodesPage;
}

export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ page }, use, testInfo) => {
      const guard = new ConsoleGuard();
      guard.watch(page);
      await use(guard);
      const unexpected = guard.unexpected();
      if (unexpected.length) await testInfo.attach('page-problems.json', { body: JSON.stringify(guard.problems, null, 2), contentType: 'application/json' });
      baseExpect(unexpected, 'console errors or failed requests that the test did not provoke').toEqual([]);
    },
    { auto: true },
  ],
  baseURL: async ({}, use) => use(stackInfo().url),
  stack: async ({}, use) => use(stackInfo()),
  api: async ({ stack }, use) => use(new StrataApi(stack.url, stack.adminToken)),

  createCluster: async ({ api }, use) => {
    const created: string[] = [];
    await use(async (body, opts = {}) => {
      const { cluster } = await api.createCluster({ shards: 1, replicasPerShard: 0, memoryMbPerShard: 32, ...body });
      created.push(cluster.id);
      return opts.waitReady ? api.waitForPhase(cluster.id, 'ready') : cluster;
    });
    for (const id of created) await api.deleteCluster(id);
  },

  signedInPage: async ({ page, stack }, use) => {
    await signInByApi(page, stack.adminEmail, stack.adminPassword);
    await use(page);
  },

  signInPage: async ({ page }, use) => use(new SignInPage(page)),
  clustersPage: async ({ page }, use) => use(new ClustersPage(page)),
  wizard: async ({ page }, use) => use(new CreateClusterPage(page)),
  clusterPage: async ({ page }, use) => use(new ClusterPage(page)),
  nodesPage: async ({ page }, use) => use(new NodesPage(page)),
});

/** Sets the session cookie in the page's context (context.request shares cookies with the browser). */
export async function signInByApi(page: Page, email: string, password: string): Promise<void> {
  const res = await page.context().request.post('/v1/session', { data: { email, password } });
  baseExpect(res.status(), await res.text()).toBe(200);
}

/** Full-page screenshot into e2e/artifacts/<name>.png, also attached to the report. */
export async function saveScreenshot(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  // CI keeps no artifacts: a full-page capture there only costs the browser CPU the other suites need.
  if (process.env.CI) return;
  const file = path.join(ARTIFACTS, `${name}.png`);
  // Sticky chrome looks torn in a full-page capture of a scrolled page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** axe-core (WCAG 2.1 A/AA + best practices): no serious or critical violations. */
export async function expectAccessible(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  baseExpect(serious, `axe violations on ${name}:\n${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

export const expect = baseExpect.extend({
  /** The control is marked invalid and its accessible description carries the message. */
  async toShowFieldError(control: Locator, message: string | RegExp) {
    const name = 'toShowFieldError';
    try {
      await baseExpect(control).toHaveAttribute('aria-invalid', 'true');
      await baseExpect(control).toHaveAccessibleDescription(typeof message === 'string' ? new RegExp(escape(message)) : message);
      return { pass: true, name, message: () => `expected no field error "${String(message)}"` };
    } catch (e) {
      return { pass: false, name, message: () => `expected field error "${String(message)}": ${(e as Error).message}` };
    }
  },
  /** A cluster status badge shows this text (colour comes with it). */
  async toHaveClusterStatus(badge: Locator, status: string, options?: { timeout?: number }) {
    const name = 'toHaveClusterStatus';
    try {
      await baseExpect(badge).toHaveText(status, options);
      return { pass: true, name, message: () => `expected status not to be ${status}` };
    } catch (e) {
      return { pass: false, name, message: () => `expected status ${status}: ${(e as Error).message}` };
    }
  },
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
