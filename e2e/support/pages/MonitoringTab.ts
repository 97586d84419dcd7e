import type { Locator, Page } from '@playwright/test';

/** The Monitoring tab of a cluster page. */
export class MonitoringTab {
  readonly opsNow: Locator;
  readonly opsChart: Locator;
  readonly latencyChart: Locator;
  readonly streamState: Locator;
  readonly hottestShard: Locator;
  readonly shardCells: Locator;

  constructor(readonly page: Page) {
    this.opsNow = page.getByTestId('ops-now');
    this.opsChart = page.getByTestId('chart-ops');
    this.latencyChart = page.getByTestId('chart-latency');
    this.streamState = page.getByTestId('stream-state');
    this.hottestShard = page.getByTestId('hottest-shard');
    this.shardCells = page.getByTestId('shard-cell');
  }

  async goto(clusterId: string): Promise<void> {
    await this.page.goto(`/clusters/${clusterId}/monitoring`);
    await this.opsChart.waitFor();
  }

  range(label: string): Locator {
    return this.page.getByRole('radio', { name: label });
  }

  /** The newest ops/s the ops chart draws (reads + writes), or null before any sample. */
  async chartOps(): Promise<number | null> {
    const v = await this.opsChart.getAttribute('data-latest');
    return v ? Number(v) : null;
  }
}
