/**
 * Evaluates every enabled rule on every cluster it applies to, on its own
 * timer (never inside a reconcile pass): gauges from the metrics hot window,
 * `cluster_degraded` from the cluster's phase, events from cluster events and
 * backups. A firing or resolution is stored with its deliveries in one
 * transaction, then the dispatcher is woken. Rules are reloaded when the API
 * changes them (and every `reloadMs`).
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import { ALERT_METRICS } from '@strata/api';
import { inTransaction } from '../db/tx';
import { evaluate, type Breach, type Observation } from './alert-evaluation';
import { gaugeValues, isGauge } from './alert-values';
import type { AlertStore, RuleTarget } from './alert.store';
import { notification } from './notification-payload';

export interface EvaluatorTimings {
  /** How often rules are evaluated. */
  intervalMs: number;
  /** How often rules are reloaded without a change through the API. */
  reloadMs: number;
}

export const DEFAULT_EVALUATION: EvaluatorTimings = { intervalMs: 500, reloadMs: 10_000 };

export interface ClusterSecond {
  sec: number;
  rows: ArrayLike<number>[];
}

const key = (t: RuleTarget) => `${t.rule.id}/${t.cluster.id}`;

export class AlertEvaluator {
  private targets: RuleTarget[] = [];
  private firing = new Map<string, string>();
  private readonly breaches = new Map<string, Breach>();
  private loadedAt = 0;
  private stale = true;
  private timer?: NodeJS.Timeout;
  private busy = false;
  readonly stats = { ticks: 0, fired: 0, resolved: 0, lastTickMs: 0 };

  constructor(private readonly d: {
    pool: pg.Pool;
    store: AlertStore;
    log: Logger;
    timings: EvaluatorTimings;
    /** The newest (complete) second of a cluster's instance rows, or null. */
    latest: (clusterId: string) => ClusterSecond | null;
    /** Deliveries were queued. */
    queued: () => void;
    maxPendingPerChannel: number;
    now?: () => number;
  }) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.d.timings.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Rules changed: reload them at the next tick. */
  invalidate(): void {
    this.stale = true;
  }

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  /** One evaluation of every rule; overlapping calls do nothing. */
  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const started = Date.now();
    try {
      await this.evaluateAll();
      this.stats.ticks++;
    } catch (err) {
      this.d.log.error({ err }, 'alert evaluation failed');
    } finally {
      this.stats.lastTickMs = Date.now() - started;
      this.busy = false;
    }
  }

  private async evaluateAll(): Promise<void> {
    const now = this.now();
    if (this.stale || now - this.loadedAt >= this.d.timings.reloadMs) {
      this.stale = false;
      this.loadedAt = now;
      this.targets = await this.d.store.targets();
      this.firing = await this.d.store.firing();
      // Alerts of rules deleted or disabled (or of clusters gone) resolve without a notification.
      const live = new Set(this.targets.map(key));
      for (const [k, alertId] of this.firing) {
        if (live.has(k)) continue;
        await this.d.store.resolve(alertId, new Date(now));
        this.firing.delete(k);
      }
      for (const k of this.breaches.keys()) if (!live.has(k)) this.breaches.delete(k);
    }
    if (!this.targets.length) return;

    const clusterIds = [...new Set(this.targets.map((t) => t.cluster.id))];
    const kinds = new Set(this.targets.map((t) => ALERT_METRICS[t.rule.metric].kind));
    const phases = kinds.has('state') ? await this.d.store.phases(clusterIds) : new Map<string, string>();
    const windowMs = Math.max(0, ...this.targets.filter((t) => ALERT_METRICS[t.rule.metric].kind === 'event').map((t) => t.rule.forSeconds * 1000));
    const happenings = kinds.has('event') ? await this.d.store.happenings(clusterIds, new Date(now - windowMs)) : [];
    const seconds = new Map<string, ClusterSecond | null>();
    const nowSec = Math.floor(now / 1000);

    for (const t of this.targets) {
      const kind = ALERT_METRICS[t.rule.metric].kind;
      let o: Observation;
      if (isGauge(t.rule.metric)) {
        if (!seconds.has(t.cluster.id)) seconds.set(t.cluster.id, this.d.latest(t.cluster.id));
        const s = seconds.get(t.cluster.id);
        o = s ? { value: gaugeValues(s.rows)[t.rule.metric], sec: s.sec } : { value: null, sec: nowSec };
      } else if (kind === 'state') {
        const phase = phases.get(t.cluster.id);
        o = { value: phase === undefined ? null : phase === 'degraded' ? 1 : 0, sec: nowSec };
      } else {
        const from = now - t.rule.forSeconds * 1000;
        o = { value: happenings.filter((h) => h.clusterId === t.cluster.id && h.kind === t.rule.metric && h.at > from).length, sec: nowSec };
      }
      const k = key(t);
      let breach = this.breaches.get(k);
      if (!breach) this.breaches.set(k, (breach = { since: null }));
      const v = evaluate({ threshold: t.rule.threshold, forSeconds: t.rule.forSeconds, kind }, breach, this.firing.has(k), o);
      if (v.action === 'fire') await this.fire(t, v.value, now);
      else if (v.action === 'resolve') await this.resolve(t, now);
    }
  }

  private async fire(t: RuleTarget, value: number, now: number): Promise<void> {
    const at = new Date(now);
    const alert = await inTransaction(this.d.pool, async (db) => {
      const a = await this.d.store.fire(t, value, at, db);
      if (a) await this.d.store.enqueue(t.rule.organizationId, t.rule.channelIds, a.id, 'firing', (id) => notification(id, 'firing', a, at), this.d.maxPendingPerChannel, db);
      return a;
    });
    if (!alert) return;
    this.firing.set(key(t), alert.id);
    this.stats.fired++;
    this.d.log.info({ alertId: alert.id, ruleId: t.rule.id, clusterId: t.cluster.id, metric: t.rule.metric, value }, 'alert firing');
    if (t.rule.channelIds.length) this.d.queued();
  }

  private async resolve(t: RuleTarget, now: number): Promise<void> {
    const alertId = this.firing.get(key(t));
    if (!alertId) return;
    const at = new Date(now);
    const alert = await inTransaction(this.d.pool, async (db) => {
      const a = await this.d.store.resolve(alertId, at, db);
      if (a) await this.d.store.enqueue(t.rule.organizationId, t.rule.channelIds, a.id, 'resolved', (id) => notification(id, 'resolved', a, at), this.d.maxPendingPerChannel, db);
      return a;
    });
    this.firing.delete(key(t));
    if (!alert) return;
    this.stats.resolved++;
    this.d.log.info({ alertId, ruleId: t.rule.id, clusterId: t.cluster.id }, 'alert resolved');
    if (t.rule.channelIds.length) this.d.queued();
  }
}
