import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { condition } from './condition';
import { loadContext, type ReconcileDeps } from './cluster-context';
import { runSteps } from './step-runner';
import { createClusterSteps } from './create-cluster.steps';
import { deleteClusterSteps } from './delete-cluster.steps';
import { evaluateHealth } from './health';

const LEASE_MS = 5000;
const REQUEUE_MS = 250;
const TICK_MS = 500;

/**
 * Level-triggered reconciler. Each cluster that needs work is leased in
 * PostgreSQL (one worker per cluster across processes); a worker re-reads
 * desired + observed state every pass and runs the operation's steps until
 * they all succeed. Restarting the process at any point only repeats passes.
 */
export class Reconciler {
  private readonly owner = `cp-${randomUUID()}`;
  private readonly workers = new Map<string, { wake: () => void }>();
  private timer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private stopped = false;
  private ticking = false;

  constructor(private readonly deps: ReconcileDeps & { log: Logger; onPass?: (outcome: 'done' | 'requeued' | 'failed', seconds: number) => void }) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.healthTimer = setInterval(() => void this.healthPass(), 1000);
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.healthTimer);
    for (const w of this.workers.values()) w.wake();
    while (this.workers.size) await new Promise((r) => setTimeout(r, 20));
  }

  /** Something changed for this cluster (or any, without an id): look now. */
  wake(clusterId?: string): void {
    if (clusterId && this.workers.has(clusterId)) this.workers.get(clusterId)!.wake();
    else void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const ids = await this.deps.clusters.leaseForReconcile(this.owner, LEASE_MS, 16, [...this.workers.keys()]);
      for (const id of ids) this.spawn(id);
    } catch (err) {
      this.deps.log.error({ err }, 'reconciler tick failed');
    } finally {
      this.ticking = false;
    }
  }

  private spawn(clusterId: string): void {
    let wakeUp = () => {};
    const worker = { wake: () => wakeUp() };
    this.workers.set(clusterId, worker);
    void (async () => {
      try {
        while (!this.stopped) {
          const started = performance.now();
          const done = await this.pass(clusterId).catch((err) => {
            this.deps.onPass?.('failed', (performance.now() - started) / 1000);
            throw err;
          });
          this.deps.onPass?.(done ? 'done' : 'requeued', (performance.now() - started) / 1000);
          if (done) {
            await this.deps.clusters.releaseLease(clusterId, this.owner, true);
            return;
          }
          if (!(await this.deps.clusters.renewLease(clusterId, this.owner, LEASE_MS))) return;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, REQUEUE_MS);
            wakeUp = () => { clearTimeout(t); resolve(); };
          });
        }
        await this.deps.clusters.releaseLease(clusterId, this.owner, false);
      } catch (err) {
        this.deps.log.error({ err, clusterId }, 'reconcile pass failed; will retry');
        await this.deps.clusters.releaseLease(clusterId, this.owner, false).catch(() => {});
      } finally {
        this.workers.delete(clusterId);
      }
    })();
  }

  /** One pass. Returns true when the cluster needs nothing more. */
  private async pass(clusterId: string): Promise<boolean> {
    const { clusters, operations } = this.deps;
    const cluster = await clusters.get(clusterId);
    if (!cluster) return true;
    const op = await operations.active(clusterId);
    if (!op) return true;
    const ctx = await loadContext(this.deps, cluster);
    const before = JSON.stringify([op.state, op.progress, op.steps]);
    const steps = op.kind === 'delete-cluster' ? deleteClusterSteps : createClusterSteps;
    const outcome = await runSteps(op, steps, ctx);
    if (JSON.stringify([op.state, op.progress, op.steps]) !== before) await operations.save(op);

    if (op.kind === 'create-cluster') {
      if (outcome.kind === 'succeeded') {
        await clusters.setStatus(clusterId, 'ready', evaluateHealth(ctx).conditions);
        this.deps.log.info({ clusterId, name: cluster.name }, 'cluster ready');
      } else if (outcome.kind === 'failed') {
        await clusters.setStatus(clusterId, 'failed', [condition('Provisioned', 'false', outcome.code, outcome.message)]);
        this.deps.log.warn({ clusterId, error: outcome.message }, 'cluster create failed');
      }
    } else if (op.kind === 'delete-cluster') {
      if (outcome.kind === 'succeeded') {
        await clusters.delete(clusterId);
        this.deps.log.info({ clusterId, name: cluster.name }, 'cluster deleted');
      } else if (outcome.kind === 'failed') {
        await clusters.setStatus(clusterId, 'failed', [condition('Deleted', 'false', outcome.code, outcome.message)]);
      }
    }
    return outcome.kind !== 'waiting';
  }

  /** Ready clusters turn degraded when observation says so, and back. */
  private async healthPass(): Promise<void> {
    if (this.stopped) return;
    try {
      const clusters = await this.deps.clusters.listByPhase(['ready', 'degraded']);
      const nodes = clusters.length ? await this.deps.nodes.list() : [];
      for (const cluster of clusters) {
        if (this.workers.has(cluster.id)) continue;
        const ctx = await loadContext(this.deps, cluster, { nodes, tasks: false });
        const h = evaluateHealth(ctx);
        if (h.phase === 'unknown') continue;
        const changed = h.phase !== cluster.status.phase ||
          JSON.stringify(h.conditions.map((c) => [c.type, c.status, c.message])) !==
          JSON.stringify(cluster.status.conditions.map((c) => [c.type, c.status, c.message]));
        if (changed) {
          const conditions = h.conditions.map((c) => {
            const prev = cluster.status.conditions.find((p) => p.type === c.type && p.status === c.status);
            return prev ? { ...c, lastTransitionAt: prev.lastTransitionAt } : c;
          });
          await this.deps.clusters.setStatus(cluster.id, h.phase, conditions);
        }
      }
    } catch (err) {
      this.deps.log.error({ err }, 'health pass failed');
    }
  }
}
