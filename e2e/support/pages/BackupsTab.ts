import type { Locator, Page } from '@playwright/test';

/** The Backups tab of a cluster page. */
export class BackupsTab {
  readonly backUpNow: Locator;
  readonly consistent: Locator;
  readonly rows: Locator;
  readonly scheduleForm: Locator;
  readonly next: Locator;

  constructor(readonly page: Page) {
    this.backUpNow = page.getByRole('button', { name: 'Back up now' });
    this.consistent = page.getByRole('checkbox', { name: /Consistent/ });
    this.rows = page.getByTestId('backup-row');
    this.scheduleForm = page.getByTestId('backup-schedule-form');
    this.next = page.getByTestId('backup-next');
  }

  async goto(clusterId: string): Promise<void> {
    await this.page.goto(`/clusters/${clusterId}/backups`);
  }
}
