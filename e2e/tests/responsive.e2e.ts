import type { Locator, Page } from '@playwright/test';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

const WIDTHS = [
  { width: 390, height: 844, label: 'phone' },
  { width: 768, height: 1024, label: 'tablet' },
  { width: 1440, height: 900, label: 'desktop' },
] as const;

/**
 * The page never scrolls sideways (the document is exactly as wide as the
 * viewport) and no element sticks out past the viewport's right edge, not
 * even inside a box that scrolls or clips.
 */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { doc, viewport, widest } = await page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    // The element sticking out furthest, to say what is too wide.
    let widest = '';
    let right = vw;
    // Inside a visually hidden helper (a card table's head, sr-only text): a 1 px box that clips its content.
    const hidden = (el: Element): boolean => {
      for (let a: Element | null = el; a; a = a.parentElement) {
        if (a.getBoundingClientRect().width <= 1 && getComputedStyle(a).overflow === 'hidden') return true;
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.right > right + 0.5 && r.width > 0 && !hidden(el)) {
        right = r.right;
        widest = `${el.tagName.toLowerCase()}.${(el as HTMLElement).className} "${(el.textContent ?? '').trim().slice(0, 40)}" (${Math.round(r.right)} px)`;
      }
    }
    return { doc: document.documentElement.scrollWidth, viewport: vw, widest };
  });
  expect(doc, `${where}: document ${doc} px wide in a ${viewport} px viewport; widest: ${widest}`).toBe(viewport);
  expect(widest, `${where}: an element sticks out of the ${viewport} px viewport`).toBe('');
}

/**
 * No text touches a card's border: every visible line of text inside a card
 * starts and ends at least 8 px inside its left and right edges (the card's
 * own padding or its parts' padding, whichever gives the room).
 */
async function expectCardPadding(page: Page, where: string): Promise<void> {
  const touching = await page.evaluate(() => {
    const out: string[] = [];
    for (const card of Array.from(document.querySelectorAll('.card'))) {
      const c = card.getBoundingClientRect();
      if (c.width === 0 || c.height === 0) continue;
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = (n.textContent ?? '').trim();
        const parent = n.parentElement;
        if (!text || !parent) continue;
        // Text in a box that scrolls sideways (code) or is visually hidden does not count.
        if (parent.closest('pre, .visually-hidden, .sr-only, [aria-hidden="true"], dialog:not([open]), details:not([open]) > :not(summary)')) continue;
        // Clipped away by a box between the text and the card (a visually hidden table head, a sideways-scrolling box): not seen.
        const clips: DOMRect[] = [];
        for (let a: Element | null = parent; a && a !== card; a = a.parentElement) {
          const o = getComputedStyle(a);
          if (o.overflowX !== 'visible' || o.overflowY !== 'visible') clips.push(a.getBoundingClientRect());
        }
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of Array.from(range.getClientRects())) {
          if (r.width === 0 || r.height === 0) continue;
          if (clips.some((k) => r.right <= k.left + 1 || r.left >= k.right - 1 || k.width <= 1 || k.height <= 1)) continue;
          if (r.left < c.left + 8 - 0.5 || r.right > c.right - 8 + 0.5) {
            out.push(`"${text.slice(0, 40)}" in ${card.className} (${Math.round(r.left - c.left)} px from the left, ${Math.round(c.right - r.right)} px from the right)`);
            break;
          }
        }
      }
    }
    return out;
  });
  expect(touching.slice(0, 8), `${where}: text touching a card's border`).toEqual([]);
}

/** Every item (tab, link) is wholly inside the viewport and its container does not scroll sideways. */
async function expectAllInView(page: Page, container: Locator, items: Locator, where: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const count = await items.count();
  expect(count, `${where}: items`).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const item = items.nth(i);
    const box = (await item.boundingBox())!;
    const name = (await item.textContent())?.trim();
    expect(box.x, `${where}: "${name}" starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${where}: "${name}" ends inside the ${width} px screen`).toBeLessThanOrEqual(width);
  }
  const { scroll, client } = await container.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, `${where}: scrolls sideways inside itself`).toBeLessThanOrEqual(client);
}

test.describe('every page fits the screen at 390, 768 and 1440 px', () => {
  for (const vp of WIDTHS) {
    test(`${vp.width} px (${vp.label})`, async ({ browser, stack, consoleGuard, signedInPage: page, createCluster, clustersPage, wizard, clusterPage, nodesPage }, testInfo) => {
      const cluster = await createCluster({ name: uniqueName(`e2e-fit-${vp.width}`), shards: 2, replicasPerShard: 1 }, { waitReady: true });
      await page.setViewportSize({ width: vp.width, height: vp.height });

      await clustersPage.goto();
      await expect(page.getByTestId('cluster-row').first()).toBeVisible();
      await expectNoSidewaysScroll(page, 'clusters list');
      await expectCardPadding(page, 'clusters list');
      await saveScreenshot(page, `responsive-${vp.width}-clusters`, testInfo);

      await wizard.goto();
      await wizard.fill({ name: 'My Cluster', shards: 2, replicasPerShard: 1 });
      await expect(wizard.summaryValue('nodes')).toContainText('of');
      await expectNoSidewaysScroll(page, 'create wizard');
      await expectCardPadding(page, 'create wizard');
      await saveScreenshot(page, `responsive-${vp.width}-wizard`, testInfo);

      await clusterPage.goto(cluster.id);
      await expect(clusterPage.status).toHaveClusterStatus('Ready');
      await expect(clusterPage.uri).toBeVisible();
      await expect(clusterPage.topology.getByTestId('instance')).toHaveCount(4);
      await expectNoSidewaysScroll(page, 'cluster page');
      await expectCardPadding(page, 'cluster page');
      for (const panel of [clusterPage.topology, clusterPage.connection]) {
        const box = (await panel.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(vp.width);
      }
      // Every client tab and every section tab is visible, none behind a sideways scroll.
      const clientTabs = page.getByRole('tablist', { name: 'Client snippets' });
      await expectAllInView(page, clientTabs, clientTabs.getByRole('tab'), 'client tabs');
      await expect(clientTabs.getByRole('tab')).toHaveCount(6);
      await expectAllInView(page, clusterPage.tabs, clusterPage.tabs.getByRole('link'), 'cluster sections');
      await expect(clusterPage.tabs.getByRole('link')).toHaveCount(8);
      await saveScreenshot(page, `responsive-${vp.width}-cluster`, testInfo);

      // The other sections of the cluster page.
      for (const [section, ready] of [
        ['monitoring', page.getByTestId('chart-ops')],
        ['benchmarks', page.getByRole('heading', { name: 'One-click presets' })],
        ['diagnostics', page.getByTestId('slowlog-panel').getByRole('table', { name: 'Slow log' })],
        ['activity', page.getByRole('table', { name: 'Conditions' })],
        ['settings', page.getByRole('heading', { name: 'Change the cluster' })],
      ] as const) {
        await page.goto(`/clusters/${cluster.id}/${section}`);
        await expect(ready).toBeVisible();
        await expectNoSidewaysScroll(page, `cluster ${section}`);
        await expectCardPadding(page, `cluster ${section}`);
        await saveScreenshot(page, `responsive-${vp.width}-cluster-${section}`, testInfo);
      }

      await page.goto('/settings/access');
      await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1)).toBeVisible();
      await expectNoSidewaysScroll(page, 'access settings');
      await expectCardPadding(page, 'access settings');
      await saveScreenshot(page, `responsive-${vp.width}-access`, testInfo);

      await nodesPage.goto();
      await expect(nodesPage.rows.first()).toBeVisible();
      await expectNoSidewaysScroll(page, 'nodes page');
      await expectCardPadding(page, 'nodes page');
      await saveScreenshot(page, `responsive-${vp.width}-nodes`, testInfo);

      await page.goto('/backups');
      await expect(page.getByRole('heading', { name: 'Upload RDB' })).toBeVisible();
      await expectNoSidewaysScroll(page, 'backups page');
      await expectCardPadding(page, 'backups page');
      await saveScreenshot(page, `responsive-${vp.width}-backups`, testInfo);

      await page.goto('/alerts');
      await expect(page.getByRole('form', { name: 'Add alert rule' })).toBeVisible();
      await expectNoSidewaysScroll(page, 'alerts page');
      await expectCardPadding(page, 'alerts page');
      await saveScreenshot(page, `responsive-${vp.width}-alerts`, testInfo);

      // Signed out: the sign-in page.
      const signedOut = await browser.newContext({ baseURL: stack.url, viewport: { width: vp.width, height: vp.height } });
      const signIn = await signedOut.newPage();
      consoleGuard.watch(signIn);
      await signIn.goto('/sign-in');
      await expect(signIn.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await expectNoSidewaysScroll(signIn, 'sign-in');
      await expectCardPadding(signIn, 'sign-in');
      await saveScreenshot(signIn, `responsive-${vp.width}-sign-in`, testInfo);
      await signedOut.close();

      if (vp.width === 390) {
        // Tables turn into cards: one block per row with labelled cells, no hidden columns.
        await nodesPage.goto();
        await expect(nodesPage.rows.first()).toBeVisible();
        expect(await nodesPage.rows.first().evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
        await page.goto('/settings/access');
        for (const name of ['API tokens', 'Users', 'Audit log']) {
          const row = page.getByRole('table', { name }).locator('tbody tr:not(.skeleton-row)').first();
          await expect(row).toBeVisible();
          expect(await row.evaluate((tr) => getComputedStyle(tr).display), `${name} rows are cards`).toBe('block');
        }
        await page.goto(`/clusters/${cluster.id}/activity`);
        const condition = page.getByRole('table', { name: 'Conditions' }).locator('tbody tr').first();
        await expect(condition).toBeVisible();
        expect(await condition.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');

        await clustersPage.goto();
        const row = page.getByTestId('cluster-row').first();
        expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
        const ops = row.getByTestId('cluster-ops');
        expect((await ops.boundingBox())!.x + (await ops.boundingBox())!.width).toBeLessThanOrEqual(vp.width);

        // The top menu is as tall as its content on a short page.
        const menu = (await page.locator('.sidebar').boundingBox())!;
        expect(menu.height).toBeLessThan(80);

        // On a phone the summary comes before the Create button.
        await wizard.goto();
        const summary = (await wizard.summary.boundingBox())!;
        const submit = (await wizard.submit.boundingBox())!;
        expect(summary.y + summary.height).toBeLessThanOrEqual(submit.y);
      }
    });
  }
});
