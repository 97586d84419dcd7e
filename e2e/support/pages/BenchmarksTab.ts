import type { Locator, Page } from '@playwright/test';

/** The Benchmarks tab of a cluster page. */
export class BenchmarksTab {
  readonly progress: Locator;
  readonly progressBar: Locator;
  readonly liveChart: Locator;
  readonly result: Locator;
  readonly throughput: Locator;
  readonly verdict: Locator;
  readonly latencyTable: Locator;
  readonly percentileChart: Locator;
  readonly seriesChart: Locator;
  readonly shards: Locator;

  constructor(readonly page: Page) {
    this.progress = page.getByTestId('bench-progress');
    this.progressBar = page.getByRole('progressbar', { name: 'Benchmark progress' });
    this.liveChart = page.getByTestId('bench-live-chart');
    this.result = page.getByTestId('bench-result');
    this.throughput = page.getByTestId('bench-throughput');
    this.verdict = page.getByTestId('bench-verdict');
    this.latencyTable = page.getByTestId('bench-latency-table');
    this.percentileChart = page.getByTestId('bench-percentile-chart');
    this.seriesChart = page.getByTestId('bench-series-chart');
    this.shards = page.getByTestId('bench-shards');
  }

  async goto(clusterId: string): Promise<void> {
    await this.page.goto(`/clusters/${clusterId}/benchmarks`);
    await this.page.getByRole('heading', { name: 'One-click presets' }).waitFor();
  }

  preset(id: string): Locator {
    return this.page.getByTestId(`preset-${id}`);
  }
}
