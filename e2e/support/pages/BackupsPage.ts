import type { Locator, Page } from '@playwright/test';

/** The organization's Backups page (/backups): the RDB upload form and every backup. */
export class BackupsPage {
  readonly file: Locator;
  readonly name: Locator;
  readonly upload: Locator;
  readonly show: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    const form = page.getByTestId('upload-form');
    this.file = form.getByLabel('RDB file');
    this.name = form.getByLabel('Name');
    this.upload = form.getByRole('button', { name: 'Upload RDB' });
    this.show = page.getByLabel('Show');
    this.rows = page.getByTestId('backup-row');
  }

  async goto(): Promise<void> {
    await this.page.goto('/backups');
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('backup-origin').filter({ hasText: name }) });
  }
}
