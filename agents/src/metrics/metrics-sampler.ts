import type { Logger } from 'pino';
import type { AgentMetricsBatch, HostMetricSample, InstanceMetricSample, ObservedClusterView } from '@strata/api';
import type { InstanceRegistry } from '../instance-registry';
import type { EngineSupervisor } from '../engine-supervisor';
import type { InstanceConnections } from '../instance-connections';
import { HostSampler } from './host-sampler';
import { InstanceSampler } from './instance-sampler';
import { internalLogin } from '@strata/engine/redis-admin';

/** Agents push within this many ms after the second (each at a stable delay of its own); the control plane's live stream waits for them. */
export const PUSH_SPREAD_MS = 700;

/** Seconds of samples kept while the control plane cannot be reached. */
const MAX_BUFFERED_SECONDS = 120;

export interface MetricsSink {
  pushMetrics(batch: AgentMetricsBatch): Promise<void>;
  /**
   * When set, each second's reading of an instance also reads how it sees
   * the cluster (the status report's view) in the same round trip, and the
   * views of the instances read are handed here.
   */
  observed?(views: ReadonlyMap<string, ObservedClusterView>): void;
}

/**
 * Once a second, on the wall-clock second, samples every running engine
 * instance of this node (one long-lived connection each) and the host, and
 * pushes the batch with the node's credential. Samples that could not be
 * delivered are kept (up to two minutes) and sent with the next batch.
 */
export class MetricsSampler {
  private readonly samplers = new Map<string, InstanceSampler>();
  private readonly host: HostSampler;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private pending: { host: HostMetricSample[]; instances: InstanceMetricSample[][] } = { host: [], instances: [] };
  private pushing = false;

  constructor(
    private readonly d: {
      sink: MetricsSink; registry: InstanceRegistry; supervisor: EngineSupervisor; connections: InstanceConnections; dataDir: string; log: Logger;
      /** Delay before pushing each batch, so a fleet's pushes spread over the second instead of arriving at once. */
      pushDelayMs?: number;
      /** Push every N seconds (each push carries N seconds of samples). */
      pushEverySeconds?: number;
    },
  ) {
    this.host = new HostSampler(d.dataDir);
  }

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.samplers.clear();
  }

  private schedule(): void {
    if (this.stopped) return;
    // 20 ms after the next whole second, so every node samples the same second.
    const delay = 1000 - (Date.now() % 1000) + 20;
    this.timer = setTimeout(() => void this.tick(), delay);
  }

  private async tick(): Promise<void> {
    const ts = Math.floor(Date.now() / 1000) * 1000;
    try {
      const startedAt = Date.now();
      const instances = await this.sampleInstances(ts);
      if (this.d.sink.observed) {
        const views = new Map<string, ObservedClusterView>();
        for (const [id, s] of this.samplers) if (s.lastView && s.lastView.atMs >= startedAt && s.lastView.view) views.set(id, s.lastView.view);
        this.d.sink.observed(views);
      }
      const host = this.host.sample(ts);
      if (host) this.pending.host.push(host);
      if (instances.length) this.pending.instances.push(instances);
      this.pending.host = this.pending.host.slice(-MAX_BUFFERED_SECONDS);
      this.pending.instances = this.pending.instances.slice(-MAX_BUFFERED_SECONDS);
      const delay = this.d.pushDelayMs ?? 0;
      if ((ts / 1000) % (this.d.pushEverySeconds ?? 1) !== 0) return;
      if (delay > 0) setTimeout(() => void this.flush(), delay).unref();
      else void this.flush();
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message }, 'metrics sampling failed');
    } finally {
      this.schedule();
    }
  }

  async sampleInstances(ts: number): Promise<InstanceMetricSample[]> {
    const seen = new Set<string>();
    const jobs: Promise<InstanceMetricSample | null>[] = [];
    for (const rec of this.d.registry.all()) {
      if (this.d.supervisor.status(rec.spec.instanceId)?.state !== 'running') continue;
      let s = this.samplers.get(rec.spec.instanceId);
      if (!s) {
        const { instanceId } = rec.spec;
        s = new InstanceSampler({ instanceId, clusterId: rec.spec.clusterId }, () => {
          // Re-read the record: a claimed spare or new credentials change the login.
          const current = this.d.registry.get(instanceId) ?? rec;
          return this.d.connections.get(instanceId, current.spec.port, internalLogin(current.credentials));
        }, { observe: this.d.sink.observed !== undefined });
        this.samplers.set(rec.spec.instanceId, s);
      }
      seen.add(rec.spec.instanceId);
      jobs.push(s.sample(ts).catch(() => null));
    }
    for (const id of this.samplers.keys()) if (!seen.has(id)) this.samplers.delete(id);
    return (await Promise.all(jobs)).filter((x): x is InstanceMetricSample => x !== null);
  }

  private async flush(): Promise<void> {
    if (this.pushing || (!this.pending.host.length && !this.pending.instances.length)) return;
    this.pushing = true;
    const batch = { host: this.pending.host, instances: this.pending.instances.flat() };
    const sent = this.pending;
    this.pending = { host: [], instances: [] };
    try {
      await this.d.sink.pushMetrics(batch);
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status && status >= 400 && status < 500 && status !== 401 && status !== 429) {
        // Refused as invalid: resending would be refused again.
        this.d.log.warn({ err: (err as Error).message }, 'metrics batch refused; dropped');
        return;
      }
      // Put them back in front of anything sampled meanwhile.
      this.pending = {
        host: [...sent.host, ...this.pending.host].slice(-MAX_BUFFERED_SECONDS),
        instances: [...sent.instances, ...this.pending.instances].slice(-MAX_BUFFERED_SECONDS),
      };
      this.d.log.debug({ err: (err as Error).message }, 'metrics push failed; will resend');
    } finally {
      this.pushing = false;
    }
  }
}
