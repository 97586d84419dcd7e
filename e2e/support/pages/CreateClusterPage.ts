import type { Locator, Page } from '@playwright/test';

export interface WizardInput {
  name: string;
  shards?: number | string;
  replicasPerShard?: number | string;
  /** Visible option text, e.g. "64 MB". */
  memory?: string;
  durability?: 'None (in memory)' | 'AOF, every second' | 'AOF, every write';
  evictionPolicy?: string;
  /** Visible option text of the Engine menu. */
  engine?: 'Redis 7.0' | 'Valkey 8';
}

export class CreateClusterPage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly shards: Locator;
  readonly replicasPerShard: Locator;
  readonly memory: Locator;
  readonly evictionPolicy: Locator;
  readonly engine: Locator;
  readonly submit: Locator;
  readonly summary: Locator;
  readonly formError: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Create cluster' });
    this.name = page.getByLabel('Cluster name', { exact: true });
    this.shards = page.getByLabel('Shards', { exact: true });
    this.replicasPerShard = page.getByLabel('Replicas per shard', { exact: true });
    this.memory = page.getByLabel('Memory per shard', { exact: true });
    this.evictionPolicy = page.getByLabel('Eviction policy', { exact: true });
    this.engine = page.getByLabel('Engine', { exact: true });
    this.submit = page.getByRole('button', { name: 'Create cluster' });
    this.summary = page.getByTestId('cluster-summary');
    this.formError = page.getByRole('form', { name: 'Create cluster' }).getByRole('alert');
  }

  async goto(): Promise<void> {
    await this.page.goto('/clusters/new');
    await this.heading.waitFor();
  }

  durability(title: NonNullable<WizardInput['durability']>): Locator {
    return this.page.getByRole('radio', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  }

  summaryValue(key: 'instances' | 'nodes' | 'memory'): Locator {
    return this.page.getByTestId(`summary-${key}`);
  }

  async fill(input: WizardInput): Promise<void> {
    await this.name.fill(input.name);
    if (input.shards !== undefined) await this.shards.fill(String(input.shards));
    if (input.replicasPerShard !== undefined) await this.replicasPerShard.fill(String(input.replicasPerShard));
    if (input.memory) await this.memory.selectOption({ label: input.memory });
    if (input.durability) await this.durability(input.durability).check();
    if (input.evictionPolicy) await this.evictionPolicy.selectOption(input.evictionPolicy);
    if (input.engine) await this.engine.selectOption({ label: input.engine });
  }
}
