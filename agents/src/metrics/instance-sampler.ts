import type { Redis } from 'ioredis';
import type { InstanceMetricSample } from '@strata/api';
import { CommandClassifier, connectAdmin, readSnapshot, SAMPLER_COMMANDS, type AdminTarget } from '@strata/engine/redis-admin';
import { diffSnapshots, type RawSnapshot } from '@strata/engine/metrics';

/**
 * Samples one engine instance over its own long-lived admin connection
 * (reconnected when it drops). The first reading only primes the counters;
 * every later one yields the deltas since the previous successful reading.
 */
export class InstanceSampler {
  private client?: Redis;
  private prev?: RawSnapshot;
  private readonly classifier = new CommandClassifier();

  constructor(readonly target: AdminTarget & { instanceId: string; clusterId: string }, private readonly timeoutMs = 500) {}

  /** Same instance and login: the sampler can be kept. */
  matches(t: AdminTarget): boolean {
    return t.host === this.target.host && t.port === this.target.port && t.username === this.target.username && t.password === this.target.password;
  }

  async sample(ts: number): Promise<InstanceMetricSample | null> {
    try {
      if (!this.client || this.client.status !== 'ready') {
        this.client?.disconnect();
        this.client = undefined;
        this.client = await connectAdmin(this.target, this.timeoutMs);
      }
      const snap = await readSnapshot(this.client);
      await this.classifier.learn(this.client, snap.commands.keys());
      const prev = this.prev;
      this.prev = snap;
      if (!prev) return null;
      return { instanceId: this.target.instanceId, clusterId: this.target.clusterId, ts, ...diffSnapshots(prev, snap, this.classifier.classOf, SAMPLER_COMMANDS) };
    } catch (err) {
      this.client?.disconnect();
      this.client = undefined;
      throw err;
    }
  }

  close(): void {
    this.client?.disconnect();
    this.client = undefined;
  }
}
