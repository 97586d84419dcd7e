import type { Locator, Page } from '@playwright/test';

export class NodesPage {
  readonly heading: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Nodes' });
    this.rows = page.getByTestId('node-row');
  }

  async goto(): Promise<void> {
    await this.page.goto('/nodes');
    await this.heading.waitFor();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ hasText: name });
  }
}
