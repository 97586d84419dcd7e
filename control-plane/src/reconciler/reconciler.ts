import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClusterPhase } from '@strata/api';
import { inTx, loadContext, timingsOf, type ClusterContext, type ReconcileDeps } from './cluster-context';
import type { ReconcilerTimings } from './timings';
import { deriveStatus, statusChanged, storedStatus, writeStatus, type HealthVerdict } from './cluster-status';
import type { OperationRow } from '../stores/operation.store';
import type { NodeRow } from '../stores/node.store';
import type { ClusterLease } from '../stores/cluster.store';
import type { Db } from '../db/tx';
import { fencedTransaction, LeaseLost } from './lease-fence';
import { runSteps } from './step-runner';
import { createStage } from './create-progress';
import { handlerFor } from './operation-handlers';
import { evaluateHealth } from './health';
import { applyHealPlan, planFor, recordAgentRestarts, recordDownNodes, recordFinishedRepairs, releaseCleanedUpLost, suspectNodes } from './heal';
import { healDuringUpdate } from './update-cluster.steps';
import { taskFor } from './applier';
import { syncDatabaseUsers } from './user-sync';
import { syncClientTrust } from './trust-sync';
import { recordRotatedCertificates, renewCertificates } from './certificate-renewal';

const PROVISIONED: ClusterPhase[] = ['ready', 'degraded'];

interface Worker {
  /** The lease it works under: every write of its passes is fenced by it (lease-fence.ts). */
  lease: ClusterLease;
  wake: () => void;
  /** pass again before releasing the cluster */
  again: boolean;
  /** pass again at once (not after the requeue wait) */
  urgent: boolean;
}

/**
 * Level-triggered reconciler. Each cluster that needs work is leased in
 * PostgreSQL (one worker per cluster across processes); a worker re-reads
 * desired + observed state every pass, runs the active operation's steps
 * (create, delete) and otherwise asks the healing planner what the cluster
 * needs, until nothing is left to do. Restarting the process at any point
 * only repeats passes.
 */
export class Reconciler {
  /** Names this process in `clusters.lease_owner` (its pid first: an operator can tell which control plane holds a cluster). */
  private readonly owner = `cp-${process.pid}-${randomUUID()}`;
  private readonly workers = new Map<string, Worker>();
  /** Since when each cluster has been healthy, for rebalancing (memory only: a restart just waits again). */
  private readonly healthySince = new Map<string, number>();
  /**
   * Clusters this process found settled (ready, nothing to do or wait for,
   * every instance in its preferred role) and the nodes they live on. The
   * 2 s sweep skips them while those nodes' reports are fresh: a change in what
   * an agent reports requests a pass by itself, so a fleet of quiet clusters
   * costs passes every settled recheck, not every sweep.
   */
  private readonly settled = new Map<string, { recheckAt: number; nodeIds: string[] }>();
  /** The node list shared by heal passes for up to `nodesTtlMs` (a fleet's passes would otherwise each read every node). */
  private nodesCache?: { at: number; rows: Promise<NodeRow[]> };
  private timer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private stopped = false;
  private ticking = false;
  /** Passes run so far (for tests and metrics). */
  passes = 0;

  /** Every wait it makes (reconciler/timings.ts): from config via main.ts, today's values for what is not given. */
  private readonly t: ReconcilerTimings;

  constructor(private readonly deps: ReconcileDeps & { log: Logger; onPass?: (outcome: 'done' | 'requeued' | 'failed', seconds: number) => void }) {
    this.t = timingsOf(deps);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.t.tickMs);
    this.sweepTimer = setInterval(() => void this.sweep(), this.t.sweepMs);
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.sweepTimer);
    for (const w of this.workers.values()) w.wake();
    while (this.workers.size || this.ticking) await new Promise((r) => setTimeout(r, 20));
  }

  /** Something changed for this cluster (or any, without an id): look now. */
  wake(clusterId?: string): void {
    const w = clusterId ? this.workers.get(clusterId) : undefined;
    if (w) {
      w.again = true;
      w.urgent = true;
      w.wake();
    } else void this.tick();
  }

  /** What an agent reports changed for this cluster: a pass soon (a running worker's next one, at most `requeueMs` after its last began). */
  private observe(clusterId: string): void {
    const w = this.workers.get(clusterId);
    if (w) w.again = true;
    else void this.tick();
  }

  /**
   * A report mentioned this cluster but nothing the reconciler keys on
   * changed: worth another look only while a pass is running on a cluster
   * that is not settled (it may wait on progress the fingerprint leaves out,
   * such as a replica's sync). A settled cluster's four nodes report every
   * second; waking its worker on each would keep it passing forever.
   */
  nudge(clusterId: string): void {
    const w = this.workers.get(clusterId);
    if (!w || this.settled.has(clusterId)) return;
    w.again = true;
  }

  /**
   * A node's placement changed (drain, undrain): the next passes read the
   * node list afresh and no cluster counts as settled (a pass that read the
   * list just before the change would otherwise settle a cluster with an
   * instance on a draining node until the next recheck).
   */
  nodesChanged(): void {
    this.nodesCache = undefined;
    this.settled.clear();
  }

  /**
   * Ask for a pass (stored, so another control plane may take it). `urgent`
   * (an agent task ended) looks now; otherwise (a report changed) a running
   * worker takes it into its next pass.
   */
  async request(clusterId: string, urgent = true): Promise<void> {
    await this.deps.clusters.markNeedsReconcile(clusterId);
    if (urgent) this.wake(clusterId);
    else this.observe(clusterId);
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      if (await this.deps.clusters.markAllNeedReconcile(PROVISIONED, this.quietSettled())) await this.tick();
    } catch (err) {
      this.deps.log.error({ err }, 'reconcile sweep failed');
    }
  }

  /** Settled clusters that need no sweep pass now: settled recently, every node still reporting. */
  private quietSettled(now = Date.now()): string[] {
    const quiet: string[] = [];
    for (const [id, s] of this.settled) {
      if (now >= s.recheckAt) this.settled.delete(id);
      // Until a node's report goes stale a pass would see the same thing; from then on the sweep passes the cluster again.
      else if (s.nodeIds.every((n) => this.deps.observed.silentForMs(n) < this.deps.observed.staleAfterMs)) quiet.push(id);
    }
    return quiet;
  }

  private nodeList(): Promise<NodeRow[]> {
    const now = Date.now();
    if (!this.nodesCache || now - this.nodesCache.at > this.t.nodesTtlMs) {
      const rows = this.deps.nodes.list();
      this.nodesCache = { at: now, rows };
      rows.catch(() => { this.nodesCache = undefined; });
    }
    return this.nodesCache.rows;
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const leases = await this.deps.clusters.leaseForReconcile(this.owner, this.t.leaseMs, 16, [...this.workers.keys()]);
      for (const lease of leases) this.spawn(lease);
    } catch (err) {
      this.deps.log.error({ err }, 'reconciler tick failed');
    } finally {
      this.ticking = false;
    }
  }

  private spawn(lease: ClusterLease): void {
    const { clusterId } = lease;
    let wakeUp = () => {};
    const worker: Worker = { lease, wake: () => wakeUp(), again: false, urgent: false };
    this.workers.set(clusterId, worker);
    const deps = this.fencedDeps(lease);
    void (async () => {
      try {
        while (!this.stopped) {
          worker.again = false;
          worker.urgent = false;
          const started = performance.now();
          const { done, seen } = await this.pass(clusterId, deps).catch((err) => {
            this.deps.onPass?.('failed', (performance.now() - started) / 1000);
            throw err;
          });
          this.deps.onPass?.(done ? 'done' : 'requeued', (performance.now() - started) / 1000);
          if (done && !worker.again) {
            await this.deps.clusters.releaseLease(lease, seen);
            return;
          }
          if (!(await this.deps.clusters.renewLease(lease, this.t.leaseMs))) throw new LeaseLost(lease);
          if (worker.urgent) continue;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, Math.max(0, started + this.t.requeueMs - performance.now()));
            wakeUp = () => { clearTimeout(t); resolve(); };
          });
          wakeUp = () => {};
        }
        await this.deps.clusters.releaseLease(lease, null);
      } catch (err) {
        if (err instanceof LeaseLost) {
          // Paused past the lease (SIGSTOP, a long GC) and another worker took it: what this one read is outdated.
          // It wrote nothing since (every write is fenced); it drops the cluster and leaves it to the new holder.
          this.deps.log.warn({ clusterId, epoch: lease.epoch }, 'lost the cluster\'s reconcile lease to another worker; dropping its work here');
          this.forget(clusterId);
          return;
        }
        this.deps.log.error({ err, clusterId }, 'reconcile pass failed; will retry');
        await this.deps.clusters.releaseLease(lease, null).catch(() => {});
      } finally {
        this.workers.delete(clusterId);
      }
    })();
  }

  /**
   * The deps a worker's passes use: every write goes through a transaction
   * fenced by its lease (lease-fence.ts), placements included.
   */
  private fencedDeps(lease: ClusterLease): ReconcileDeps {
    const { clusters, transaction, replaceInstance, addReplica } = this.deps;
    const fence = async (db: Db) => {
      if (!(await clusters.holdsLease(lease, db))) throw new LeaseLost(lease);
    };
    return {
      ...this.deps,
      transaction: fencedTransaction(lease, (l, db) => clusters.holdsLease(l, db), transaction),
      replaceInstance: replaceInstance && ((cluster, lost) => replaceInstance(cluster, lost, fence)),
      addReplica: addReplica && ((cluster, draining, copies) => addReplica(cluster, draining, copies, fence)),
    };
  }

  /** What this process keeps in memory about a cluster it no longer drives. */
  private forget(clusterId: string): void {
    this.settled.delete(clusterId);
    this.healthySince.delete(clusterId);
  }

  /**
   * One pass. `done` when the cluster needs nothing more right now; `seen` is
   * the request counter read at its start (the flag is cleared only if it
   * has not moved since).
   */
  private async pass(clusterId: string, deps: ReconcileDeps): Promise<{ done: boolean; seen: string | null }> {
    this.passes++;
    const { clusters, operations } = deps;
    const save = (op: OperationRow) => inTx({ deps }, (db) => operations.save(op, db));
    const cluster = await clusters.get(clusterId);
    if (!cluster) return { done: true, seen: null };
    const seen = cluster.reconcileRequests;
    const op = await operations.active(clusterId);
    if (op) {
      this.settled.delete(clusterId);
      const ctx = await loadContext(deps, cluster, op.id);
      ctx.operation = op;
      const handler = handlerFor(op.kind);
      if (!handler) {
        op.state = 'failed';
        op.error = { code: 'unknown_operation_kind', message: `This control plane has no handler for operations of kind "${op.kind}".` };
        await save(op);
        this.deps.log.error({ clusterId, kind: op.kind }, 'unknown operation kind; operation failed');
        return { done: true, seen };
      }
      const waiting = op.state === 'pending' ? handler.waitsUntil?.(ctx, this.deps.now?.() ?? Date.now()) : null;
      if (waiting) return { done: await this.waitForStart(ctx, op, waiting, save), seen };
      if (op.startsAt) delete op.startsAt;
      // A rolling restart, and a create once formed (a restore may have loaded keys), promote the replica of a primary
      // that dies meanwhile and record the roles that follow; a create also restarts a crashed engine.
      const during = op.kind === 'update-cluster' ? healDuringUpdate(op)
        : op.kind === 'restart-cluster' ? 'promote-only' as const : createStage(op) === 'formed' ? 'create' as const : undefined;
      const healCtx = op.kind !== 'delete-cluster' ? await loadContext(deps, cluster, null, { nodes: await this.nodeList() }) : null;
      if ((during || handler.healsAsWhenIdle) && healCtx) {
        // A primary the change added that dies during it still gets its replica promoted (planHealing's `during`);
        // beside an operation that leaves the topology alone, healing plans as when no operation runs.
        const plan = planFor(healCtx, null, during);
        const asked = plan.actions.filter((a) => a.kind === 'promote' && !taskFor(healCtx, { kind: 'promote', shard: a.shard, fromInstanceId: a.fromInstanceId, crashedAt: a.crashedAt }));
        if (asked.length) this.deps.log.warn({ clusterId, operationId: op.id, promoted: asked }, 'primary died during the operation: promoting its replica');
        await applyHealPlan(healCtx, plan);
      }
      // Database users and client trust reach running instances during operations too (with healing's tasks, not the operation's).
      if (healCtx) {
        await syncDatabaseUsers(healCtx);
        await syncClientTrust(healCtx);
      }
      const before = JSON.stringify([op.state, op.progress, op.steps]);
      const steps = typeof handler.steps === 'function' ? handler.steps(ctx) : handler.steps;
      const outcome = await runSteps(op, steps, ctx);
      if (outcome.kind === 'succeeded' && handler.finalState) op.state = handler.finalState(ctx);
      // What a finished run records (a delete's removal of the cluster, events) is done before the operation is
      // saved as finished: a crash in between finds the operation still running with every step done and records
      // it again (each handler is idempotent). The other order left a deleted cluster's row behind for good when
      // the control plane died between the two writes.
      if (outcome.kind === 'succeeded') await handler.onSucceeded?.(ctx);
      if (outcome.kind === 'succeeded' && op.kind === 'delete-cluster') {
        // The delete removed the cluster's row and saved the operation as succeeded with it (operation-handlers.ts).
        this.deps.log.info({ clusterId, name: cluster.name, kind: op.kind }, 'operation succeeded');
        return { done: true, seen: null };
      }
      if (JSON.stringify([op.state, op.progress, op.steps]) !== before && !(await save(op))) {
        // The row moved on without us (a delete cancelled this create): look again.
        return { done: false, seen };
      }
      if (outcome.kind === 'succeeded') {
        if (op.kind !== 'delete-cluster') await this.writeStatus(ctx, op, evaluateHealth(ctx));
        this.deps.log.info({ clusterId, name: cluster.name, kind: op.kind }, 'operation succeeded');
        // Another operation may be queued behind this one.
        return { done: false, seen };
      }
      if (outcome.kind === 'failed') {
        await this.writeStatus(ctx, op, evaluateHealth(ctx));
        this.deps.log.warn({ clusterId, kind: op.kind, error: outcome.message }, 'operation failed');
        return { done: true, seen };
      }
      await this.writeStatus(ctx, op, null);
      return { done: false, seen };
    }
    if (!PROVISIONED.includes(cluster.status.phase)) {
      this.settled.delete(clusterId);
      return { done: true, seen };
    }
    return { done: await this.heal(clusterId, deps), seen };
  }

  /**
   * An operation that may not start yet (a restart waiting for the
   * maintenance window): it stays pending and says when it starts; the
   * cluster is healed meanwhile as if nothing were asked, but never counts
   * as settled, so the 2 s sweep notices the window opening.
   */
  private async waitForStart(
    ctx: ClusterContext, op: OperationRow, waiting: { startsAt: string; detail: string }, save: (op: OperationRow) => Promise<boolean>,
  ): Promise<boolean> {
    const first = op.steps[0];
    if (op.startsAt !== waiting.startsAt || (first && first.detail !== waiting.detail)) {
      op.startsAt = waiting.startsAt;
      if (first) first.detail = waiting.detail;
      await save(op);
    }
    const done = PROVISIONED.includes(ctx.cluster.status.phase) ? await this.heal(ctx.cluster.id, ctx.deps) : true;
    this.settled.delete(ctx.cluster.id);
    return done;
  }

  /** Phase and conditions from the operation this pass drove (or none) and what agents observe: the one status writer. */
  private async writeStatus(ctx: ClusterContext, op: OperationRow | null, health: HealthVerdict | null): Promise<void> {
    const c = ctx.cluster;
    const input = { stored: storedStatus(c), operation: op ? { kind: op.kind, state: op.state, error: op.error } : null, health };
    const next = deriveStatus(input);
    // Fenced like every write of the pass, and only when there is something to write (most passes change nothing).
    if (next && statusChanged(input.stored, next)) await inTx(ctx, (db) => writeStatus(ctx.deps.clusters, c.id, input, db));
    if (next && next.phase !== c.status.phase) {
      this.deps.log.info({ clusterId: c.id, phase: next.phase, conditions: next.conditions.filter((x) => x.status !== 'true' || x.type === 'Healing') }, 'cluster phase changed');
    }
  }

  /** No operation runs: hold the cluster to its spec. True when nothing is left to do. */
  private async heal(clusterId: string, deps: ReconcileDeps): Promise<boolean> {
    const cluster = (await deps.clusters.get(clusterId))!;
    const ctx = await loadContext(deps, cluster, null, { nodes: await this.nodeList() });
    const plan = planFor(ctx, this.healthySince.get(clusterId) ?? null);
    // A node that went down is told before what is done about it (the copies rebuilt elsewhere).
    await recordDownNodes(ctx);
    let blocked = 0;
    if (plan.actions.length) {
      this.deps.log.info({ clusterId, actions: plan.actions }, 'healing');
      const why = await applyHealPlan(ctx, plan);
      blocked = why.length;
      plan.waiting.push(...why);
    }
    const users = await syncDatabaseUsers(ctx);
    const certificates = await renewCertificates(ctx);
    const trust = await syncClientTrust(ctx);
    await recordRotatedCertificates(ctx);
    await recordFinishedRepairs(ctx);
    await recordAgentRestarts(ctx);
    await releaseCleanedUpLost(ctx);
    const h = evaluateHealth(ctx, plan);
    if (h.phase === 'unknown') return false;
    if (h.phase === 'ready') {
      if (!this.healthySince.has(clusterId)) this.healthySince.set(clusterId, Date.now());
    } else {
      this.healthySince.delete(clusterId);
    }
    await this.writeStatus(ctx, null, h);
    const settled = h.phase === 'ready' && !plan.actions.length && !plan.waiting.length && !users.pending && !certificates.pending && !trust.pending && ctx.instances.every((i) => i.role === i.preferredRole);
    if (settled) {
      if (!this.settled.has(clusterId)) this.settled.set(clusterId, { recheckAt: Date.now() + this.t.settledRecheckMs * (0.8 + 0.4 * Math.random()), nodeIds: [...new Set(ctx.instances.map((i) => i.nodeId))] });
    } else this.settled.delete(clusterId);
    // Waiting needs no worker: observation changes and the sweep bring the next pass.
    // So does a plan whose every action is a placement that found no room: the
    // sweep (every 2 s) tries again, not a worker every 250 ms under the placement lock.
    const onlyBlockedPlacements = plan.actions.every((a) => a.kind === 'replace' || a.kind === 'add-replica') && blocked === plan.actions.length;
    // Users to sync need no worker either: the task's end and the report showing the new users each bring a pass,
    // and an unsettled cluster is swept every 2 s (an instance that keeps failing to sync is retried with backoff).
    // A node that stopped reporting, whose engines' peers cannot reach them either, is declared down at the confirmed
    // timeout: the worker passes until then rather than waiting for the sweep.
    if (suspectNodes(ctx).length) return false;
    return !plan.actions.length || onlyBlockedPlacements;
  }
}
