import type { Locator, Page } from '@playwright/test';

/** The chrome around every signed-in page: left nav and the header. */
export class AppShell {
  readonly nav: Locator;
  readonly organization: Locator;
  readonly user: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.organization = page.getByTestId('current-org');
    this.user = page.getByTestId('current-user');
    this.signOutButton = page.getByRole('button', { name: 'Sign out' });
  }

  async openClusters(): Promise<void> {
    await this.nav.getByRole('link', { name: 'Clusters' }).click();
  }

  async openNodes(): Promise<void> {
    await this.nav.getByRole('link', { name: 'Nodes' }).click();
  }

  async signOut(): Promise<void> {
    await this.signOutButton.click();
  }
}
