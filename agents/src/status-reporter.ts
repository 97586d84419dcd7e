import type { Logger } from 'pino';
import type { AgentStatusReport, ObservedInstance } from '@strata/api';
import { observeWith } from '@strata/engine/redis-admin';
import type { InstanceConnections } from './instance-connections';
import type { InstanceRegistry } from './instance-registry';
import type { EngineSupervisor } from './engine-supervisor';
import type { SparePool } from './spare-pool';
import type { ControlPlaneClient } from './control-plane.client';
import { AGENT_VERSION } from './registration';

const STEADY_MS = 1000;
/** While anything on this node is in flux, report faster so provisioning is not gated on the 1 s tick. */
const FAST_MS = 100;

export class StatusReporter {
  private timer?: NodeJS.Timeout;
  private inFlight = false;
  private again = false;
  private stopped = false;
  private fastUntil = 0;

  constructor(
    private readonly d: {
      client: ControlPlaneClient; registry: InstanceRegistry; supervisor: EngineSupervisor; spares?: SparePool; connections: InstanceConnections; endpointPorts?: () => number[];
      address: string; memoryMb: number; log: Logger;
    },
  ) {}

  start(): void {
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Report now (something changed), and keep reporting fast for a few seconds. */
  poke(): void {
    this.fastUntil = Date.now() + 5000;
    if (this.inFlight) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.inFlight = true;
    let transitional = false;
    try {
      const report = await this.build();
      // In flux: an instance not running or not (yet) in a healthy cluster, or a slot migrating (the control plane waits to see it closed).
      transitional = report.instances.some((i) => i.state !== 'running' || !i.cluster || i.cluster.state !== 'ok' || i.cluster.primaryLinkUp === false || i.cluster.openSlots.length > 0);
      await this.d.client.reportStatus(report);
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message }, 'status report failed; will retry');
    } finally {
      this.inFlight = false;
      const fast = this.again || Date.now() < this.fastUntil || transitional;
      this.again = false;
      this.schedule(fast ? FAST_MS : STEADY_MS);
    }
  }

  private async observe(rec: ReturnType<InstanceRegistry['all']>[number]) {
    try {
      const client = await this.d.connections.get(rec.spec.instanceId, rec.spec.port, { username: rec.credentials.internalUser, password: rec.credentials.internalPassword });
      return await observeWith(client);
    } catch {
      return null;
    }
  }

  async build(): Promise<AgentStatusReport> {
    const instances = await Promise.all(this.d.registry.all().map(async (rec): Promise<ObservedInstance> => {
      const rt = this.d.supervisor.status(rec.spec.instanceId);
      const state = rt?.state ?? 'stopped';
      const cluster = state === 'running' ? await this.observe(rec) : null;
      if (cluster && state === 'running') this.d.registry.setLastRole(rec.spec.instanceId, cluster.role);
      return {
        instanceId: rec.spec.instanceId, clusterId: rec.spec.clusterId, port: rec.spec.port, pid: rt?.pid ?? null,
        state, restarts: rt?.restarts ?? 0, lastError: rt?.lastError ?? null, cluster,
        held: rt?.held ?? false, crashedAt: rt?.crashedAt ? new Date(rt.crashedAt).toISOString() : null,
      };
    }));
    return { agentVersion: AGENT_VERSION, memoryMb: this.d.memoryMb, instances, sparePorts: this.d.spares?.warmPorts() ?? [], endpointPorts: this.d.endpointPorts?.() ?? [] };
  }
}
