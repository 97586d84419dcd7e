import type { Locator, Page } from '@playwright/test';

/** The cluster page's Settings tab: topology changes with a plan preview, progress, switchover. */
export class SettingsTab {
  readonly form: Locator;
  readonly shards: Locator;
  readonly replicas: Locator;
  readonly memory: Locator;
  readonly clientAuth: Locator;
  readonly clientAuthWarning: Locator;
  readonly clientAuthNotApplicable: Locator;
  readonly error: Locator;
  readonly previewButton: Locator;
  readonly plan: Locator;
  readonly planSlotBar: Locator;
  readonly planMoves: Locator;
  readonly planInstances: Locator;
  readonly planSteps: Locator;
  readonly applyButton: Locator;
  readonly applyDialog: Locator;
  readonly confirmApplyButton: Locator;
  readonly migration: Locator;
  readonly percent: Locator;
  readonly stats: Locator;
  readonly tlsPanel: Locator;
  readonly tls: Locator;
  readonly tlsBlocked: Locator;
  readonly tlsSwitchButton: Locator;
  readonly tlsDialog: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId('settings-form');
    this.shards = this.form.getByLabel('Shards');
    this.replicas = this.form.getByLabel('Replicas per shard');
    this.memory = this.form.getByLabel('Memory per shard');
    this.clientAuth = this.form.getByLabel('Client certificates');
    this.clientAuthWarning = page.getByTestId('client-auth-warning');
    this.clientAuthNotApplicable = page.getByTestId('client-auth-not-applicable');
    this.error = page.getByTestId('settings-error');
    this.previewButton = page.getByRole('button', { name: 'Preview plan' });
    this.plan = page.getByTestId('plan-preview');
    this.planSlotBar = page.getByTestId('plan-slotbar');
    this.planMoves = page.getByTestId('plan-moves');
    this.planInstances = page.getByTestId('plan-instances');
    this.planSteps = page.getByTestId('plan-steps');
    this.applyButton = page.getByRole('button', { name: 'Apply', exact: true });
    this.applyDialog = page.getByTestId('apply-confirm');
    this.confirmApplyButton = page.getByRole('button', { name: 'Apply the change' });
    this.migration = page.getByTestId('migration-progress');
    this.percent = page.getByTestId('migration-percent');
    this.stats = page.getByTestId('migration-stats');
    this.tlsPanel = page.getByTestId('tls-panel');
    this.tls = this.tlsPanel.getByLabel('TLS');
    this.tlsBlocked = page.getByTestId('tls-switch-blocked');
    this.tlsSwitchButton = this.tlsPanel.getByRole('button', { name: 'Switch TLS' });
    this.tlsDialog = page.getByTestId('tls-switch-confirm');
  }

  switchoverButton(shard: number /* 0-based index */): Locator {
    return this.page.getByRole('button', { name: `Switch over shard ${shard + 1}` });
  }
}
