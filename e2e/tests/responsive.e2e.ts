import type { Page } from '@playwright/test';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';

const WIDTHS = [
  { width: 390, height: 844, label: 'phone' },
  { width: 768, height: 1024, label: 'tablet' },
  { width: 1440, height: 900, label: 'desktop' },
] as const;

/** The page never scrolls sideways: the document is exactly as wide as the viewport. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { doc, viewport, widest } = await page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    // The element sticking out furthest, to say what is too wide when it fails.
    let widest = '';
    let right = vw;
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.right > right + 0.5 && r.width > 0) {
        right = r.right;
        widest = `${el.tagName.toLowerCase()}.${(el as HTMLElement).className} (${Math.round(r.right)} px)`;
      }
    }
    return { doc: document.documentElement.scrollWidth, viewport: vw, widest };
  });
  expect(doc, `${where}: document ${doc} px wide in a ${viewport} px viewport; widest: ${widest}`).toBe(viewport);
}

test.describe('every page fits the screen at 390, 768 and 1440 px', () => {
  for (const vp of WIDTHS) {
    test(`${vp.width} px (${vp.label})`, async ({ signedInPage: page, createCluster, clustersPage, wizard, clusterPage, nodesPage }, testInfo) => {
      const cluster = await createCluster({ name: uniqueName(`e2e-fit-${vp.width}`), shards: 2, replicasPerShard: 1 }, { waitReady: true });
      await page.setViewportSize({ width: vp.width, height: vp.height });

      await clustersPage.goto();
      await expect(page.getByTestId('cluster-row').first()).toBeVisible();
      await expectNoSidewaysScroll(page, 'clusters list');
      await saveScreenshot(page, `responsive-${vp.width}-clusters`, testInfo);

      await wizard.goto();
      await wizard.fill({ name: 'My Cluster', shards: 2, replicasPerShard: 1 });
      await expect(wizard.summaryValue('nodes')).toContainText('of');
      await expectNoSidewaysScroll(page, 'create wizard');
      await saveScreenshot(page, `responsive-${vp.width}-wizard`, testInfo);

      await clusterPage.goto(cluster.id);
      await expect(clusterPage.status).toHaveClusterStatus('Ready');
      await expect(clusterPage.uri).toBeVisible();
      await expect(clusterPage.topology.getByTestId('instance')).toHaveCount(4);
      await expectNoSidewaysScroll(page, 'cluster page');
      for (const panel of [clusterPage.topology, clusterPage.connection]) {
        const box = (await panel.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(vp.width);
      }
      await saveScreenshot(page, `responsive-${vp.width}-cluster`, testInfo);

      await nodesPage.goto();
      await expect(nodesPage.rows.first()).toBeVisible();
      await expectNoSidewaysScroll(page, 'nodes page');
      await saveScreenshot(page, `responsive-${vp.width}-nodes`, testInfo);

      if (vp.width === 390) {
        // Tables turn into cards: one block per row with labelled cells, no hidden columns.
        expect(await nodesPage.rows.first().evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
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
