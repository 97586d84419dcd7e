import type { Locator, Page } from '@playwright/test';

/** The Alerts page: firing list, rule editor, notification channels. */
export class AlertsPage {
  readonly heading: Locator;
  readonly ruleForm: Locator;
  readonly channelForm: Locator;
  readonly alerts: Locator;
  readonly rules: Locator;
  readonly channels: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Alerts' });
    this.ruleForm = page.getByRole('form', { name: 'Add alert rule' });
    this.channelForm = page.getByRole('form', { name: 'Add notification channel' });
    this.alerts = page.getByRole('table', { name: 'Alerts' });
    this.rules = page.getByRole('table', { name: 'Alert rules' });
    this.channels = page.getByRole('list', { name: 'Notification channels' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/alerts');
    await this.heading.waitFor();
  }

  async addWebhook(name: string, url: string, secret: string): Promise<void> {
    const f = this.channelForm;
    await f.getByLabel('Type').selectOption('webhook');
    await f.getByLabel('Name').fill(name);
    await f.getByLabel('URL').fill(url);
    await f.getByLabel('Secret').fill(secret);
    await f.getByRole('button', { name: 'Add channel' }).click();
  }

  channel(name: string): Locator {
    return this.channels.getByRole('listitem').filter({ hasText: name });
  }

  async addRule(o: { cluster: string; metric: string; threshold: string; forSeconds: string; channels: string[] }): Promise<void> {
    const f = this.ruleForm;
    await f.getByLabel('Cluster').selectOption({ label: o.cluster });
    await f.getByLabel('Metric').selectOption({ label: o.metric });
    await f.getByLabel(/^Threshold/).fill(o.threshold);
    await f.getByLabel('For (seconds)').fill(o.forSeconds);
    for (const c of o.channels) await f.getByRole('checkbox', { name: new RegExp(c) }).check();
    await f.getByRole('button', { name: 'Add rule' }).click();
  }

  rule(cluster: string): Locator {
    return this.rules.getByRole('row').filter({ hasText: cluster });
  }

  alert(cluster: string): Locator {
    return this.alerts.getByRole('row').filter({ hasText: cluster });
  }
}
