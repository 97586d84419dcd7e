import type { Redis } from 'ioredis';
import type { InstanceMetricSample } from '@strata/api';
import { CommandClassifier, readSnapshot, SAMPLER_COMMANDS } from '@strata/engine/redis-admin';
import { diffSnapshots, type RawSnapshot } from '@strata/engine/metrics';

/**
 * Samples one engine instance over a long-lived admin connection (the
 * agent's shared per-instance connection; `connect` hands it out and
 * replaces it when it dropped). The first reading only primes the counters;
 * every later one yields the deltas since the previous successful reading.
 */
export class InstanceSampler {
  private prev?: RawSnapshot;
  private readonly classifier = new CommandClassifier();

  constructor(readonly target: { instanceId: string; clusterId: string }, private readonly connect: () => Promise<Redis>) {}

  async sample(ts: number): Promise<InstanceMetricSample | null> {
    const client = await this.connect();
    const snap = await readSnapshot(client);
    await this.classifier.learn(client, snap.commands.keys());
    const prev = this.prev;
    this.prev = snap;
    if (!prev) return null;
    return { instanceId: this.target.instanceId, clusterId: this.target.clusterId, ts, ...diffSnapshots(prev, snap, this.classifier.classOf, SAMPLER_COMMANDS) };
  }
}
