import type { Logger } from 'pino';
import type { AgentStatusReport, ObservedClusterView, ObservedInstance } from '@strata/api';
import { internalLogin, observeWith } from '@strata/engine/redis-admin';
import { NO_USERS_DIGEST } from '@strata/engine';
import type { InstanceConnections } from './instance-connections';
import type { InstanceRegistry } from './instance-registry';
import type { EngineSupervisor } from './engine-supervisor';
import type { SparePool } from './spare-pool';
import type { ControlPlaneClient } from './control-plane.client';
import { AGENT_VERSION } from './registration';
import { viewChanged } from './metrics/cluster-view';

const STEADY_MS = 1000;
/** While anything on this node is in flux, report faster so provisioning is not gated on the 1 s tick. */
const FAST_MS = 100;
/**
 * After a report carried by the metrics push, this reporter's own next report
 * waits this long: the next push (a second later) carries it, and only when
 * pushes stop or slip does the reporter send on its own.
 */
const CARRIED_FALLBACK_MS = 1500;
/** Views the metrics sampler read this long ago or less stand in for observing the engines again. */
const VIEWS_FRESH_MS = 1000;

/**
 * In flux: an instance not running or not (yet) in a healthy cluster. A slot
 * being migrated is not: a migration keeps slots open for its whole run, and
 * reports every 100 ms from every node (each a CLUSTER NODES and INFO on
 * engines busy moving keys, and a pass of the control plane) slowed the
 * move itself; the run reports its own end state when it finishes.
 */
export const inFlux = (report: AgentStatusReport) =>
  report.instances.some((i) => i.state !== 'running' || !i.cluster || i.cluster.state !== 'ok' || i.cluster.primaryLinkUp === false);

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class StatusReporter {
  private timer?: NodeJS.Timeout;
  private inFlight = false;
  private again = false;
  private stopped = false;
  private fastUntil = 0;
  private transitional = false;
  /** The cluster views the metrics sampler read last, and when. */
  private views?: { atMs: number; byInstance: ReadonlyMap<string, ObservedClusterView> };
  /** The cluster views of the last report the control plane accepted. */
  private reported = new Map<string, ObservedClusterView>();
  /** The next own report is for views the sampler just read: build it from them. */
  private fromViews = false;

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
    const views = this.fromViews ? this.freshViews() : undefined;
    this.fromViews = false;
    try {
      const report = await this.build(views);
      this.transitional = inFlux(report);
      await this.d.client.reportStatus(report);
      this.remember(report);
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message }, 'status report failed; will retry');
    } finally {
      this.finish(STEADY_MS);
    }
  }

  private finish(steadyMs: number): void {
    this.inFlight = false;
    const fast = this.again || Date.now() < this.fastUntil || this.transitional;
    this.again = false;
    this.schedule(fast ? FAST_MS : steadyMs);
  }

  /**
   * Lets the once-a-second metrics push carry the steady status report, so a
   * quiet node makes one request a second instead of two. `push` gets the
   * report to send along, or undefined while this reporter reports on its own
   * (something in flux: reports every 100 ms; or a report on its way). One
   * report at a time either way, so they reach the control plane in order.
   * A failed push is this reporter's failure too: it reports on its own next;
   * so does a push that resolves 'not-carried' (the samples went without it).
   */
  async carry(push: (status: AgentStatusReport | undefined) => Promise<void | 'not-carried'>): Promise<void> {
    if (this.stopped || this.inFlight || this.again || this.transitional || Date.now() < this.fastUntil) return void (await push(undefined));
    this.inFlight = true;
    clearTimeout(this.timer);
    let carried = false;
    try {
      let report: AgentStatusReport | undefined;
      try {
        report = await this.build(this.freshViews());
        this.transitional = inFlux(report);
      } catch (err) {
        this.d.log.warn({ err: (err as Error).message }, 'status report could not be built; the metrics go alone');
      }
      carried = report !== undefined && (await push(report)) !== 'not-carried';
      if (carried) this.remember(report!);
    } finally {
      this.finish(carried ? CARRIED_FALLBACK_MS : STEADY_MS);
    }
  }

  /**
   * The cluster views the metrics sampler read this second, in its own round
   * trip to each engine (it reads the metrics and the view together). A view
   * that changed in what the control plane acts on (role, link, slots, state,
   * epoch…) since the last report is reported at once, as observed; otherwise
   * the carried report uses these views instead of asking every engine again.
   */
  observed(views: ReadonlyMap<string, ObservedClusterView>): void {
    this.views = { atMs: Date.now(), byInstance: views };
    for (const [id, view] of views) {
      const before = this.reported.get(id);
      if (before && !viewChanged(before, view)) continue;
      if (this.stopped) return;
      if (this.inFlight) this.again = true;
      else {
        this.fromViews = true;
        this.schedule(0);
      }
      return;
    }
  }

  private freshViews(): ReadonlyMap<string, ObservedClusterView> | undefined {
    return this.views && Date.now() - this.views.atMs <= VIEWS_FRESH_MS ? this.views.byInstance : undefined;
  }

  private remember(report: AgentStatusReport): void {
    this.reported = new Map(report.instances.flatMap((i) => (i.cluster ? [[i.instanceId, i.cluster] as const] : [])));
  }

  private async observe(rec: ReturnType<InstanceRegistry['all']>[number]) {
    try {
      const client = await this.d.connections.get(rec.spec.instanceId, rec.spec.port, internalLogin(rec.credentials));
      return await observeWith(client);
    } catch {
      return null;
    }
  }

  /** The report, observing each running engine (or taking its view from `views`, read by the metrics sampler just now). */
  async build(views?: ReadonlyMap<string, ObservedClusterView>): Promise<AgentStatusReport> {
    const instances = await Promise.all(this.d.registry.all().map(async (rec): Promise<ObservedInstance> => {
      const rt = this.d.supervisor.status(rec.spec.instanceId);
      const state = rt?.state ?? 'stopped';
      const cluster = state === 'running' ? (views?.get(rec.spec.instanceId) ?? await this.observe(rec)) : null;
      if (cluster && state === 'running') this.d.registry.setLastRole(rec.spec.instanceId, cluster.role);
      return {
        instanceId: rec.spec.instanceId, clusterId: rec.spec.clusterId, port: rec.spec.port, pid: rt?.pid ?? null,
        state, restarts: rt?.restarts ?? 0, lastError: rt?.lastError ?? null, cluster,
        held: rt?.held ?? false, crashedAt: rt?.crashedAt ? new Date(rt.crashedAt).toISOString() : null,
        // An engine this agent never gave users to (started before database users existed) has none.
        usersDigest: rec.usersDigest ?? NO_USERS_DIGEST,
        certificateExpiresAt: iso(this.d.supervisor.servedCertificateExpiry(rec.spec.instanceId)),
        trustDigest: this.d.supervisor.loadedTrustDigest(rec.spec.instanceId),
      };
    }));
    return { agentVersion: AGENT_VERSION, memoryMb: this.d.memoryMb, instances, sparePorts: this.d.spares?.warmPorts() ?? [], endpointPorts: this.d.endpointPorts?.() ?? [] };
  }
}
