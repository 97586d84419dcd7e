import { expect, type Locator, type Page } from '@playwright/test';

export class ClusterPage {
  readonly status: Locator;
  readonly operation: Locator;
  readonly progress: Locator;
  readonly connection: Locator;
  readonly uri: Locator;
  readonly copyUriButton: Locator;
  readonly revealButton: Locator;
  readonly topology: Locator;
  readonly shardRows: Locator;
  readonly deleteButton: Locator;
  readonly tabs: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByTestId('cluster-status');
    this.operation = page.getByTestId('operation-progress');
    this.progress = this.operation.getByRole('progressbar');
    this.connection = page.getByTestId('connection-panel');
    this.uri = page.getByTestId('connection-uri');
    this.copyUriButton = page.getByRole('button', { name: 'Copy connection URI' });
    this.revealButton = page.getByRole('button', { name: /Reveal password|Hide password/ });
    this.topology = page.getByTestId('topology');
    this.shardRows = page.getByTestId('shard-row');
    this.deleteButton = page.getByRole('button', { name: 'Delete', exact: true });
    this.tabs = page.getByRole('navigation', { name: 'Cluster sections' });
  }

  heading(name: string): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/clusters/${id}`);
  }

  /**
   * Opens a tab and waits until it is the current one. On a CPU-starved machine a click can land while the page
   * above it still reflows (a closed plan shrinks the page and scrolls it): the click is then repeated.
   */
  async openTab(name: 'Overview' | 'Activity' | 'Settings' | 'Users' | 'Diagnostics'): Promise<void> {
    const link = this.tabs.getByRole('link', { name });
    await expect(async () => {
      if ((await link.getAttribute('aria-current')) !== 'page') await link.click();
      await expect(link).toHaveAttribute('aria-current', 'page', { timeout: 3000 });
    }).toPass({ timeout: 30_000 });
  }

  /** Clicks "Copy" and returns what landed on the clipboard. */
  async copyConnectionUri(): Promise<string> {
    await this.copyUriButton.click();
    await this.page.getByRole('status').filter({ hasText: 'Copied to clipboard' }).waitFor({ state: 'attached' });
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Delete through the UI, confirming by typing the name. */
  async delete(name: string): Promise<void> {
    await this.deleteButton.click();
    const dialog = this.page.getByRole('dialog', { name: `Delete ${name}?` });
    const confirm = dialog.getByRole('button', { name: 'Delete cluster' });
    await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
    await confirm.click();
  }
}
