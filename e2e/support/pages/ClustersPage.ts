import type { Locator, Page } from '@playwright/test';
import { AppShell } from './AppShell';

export class ClustersPage {
  readonly shell: AppShell;
  readonly heading: Locator;
  readonly table: Locator;
  readonly createButton: Locator;
  readonly emptyState: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Clusters' });
    this.table = page.getByRole('table', { name: 'Clusters' });
    this.createButton = page.getByRole('link', { name: 'Create cluster' });
    this.emptyState = page.getByRole('heading', { name: 'No clusters yet' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/clusters');
    await this.heading.waitFor();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  status(name: string): Locator {
    return this.row(name).getByTestId('cluster-status');
  }

  async open(name: string): Promise<void> {
    await this.row(name).getByRole('link', { name, exact: true }).click();
  }
}
