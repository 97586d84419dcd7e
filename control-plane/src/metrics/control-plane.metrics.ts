/**
 * The control plane's own health for Prometheus (prom-client): process
 * metrics, API latency per route, reconcile passes, task queue depth and the
 * metrics pipeline itself.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import client from 'prom-client';
import type { MetricsIngest } from './metrics-ingest';

export interface ControlPlaneMetrics {
  registry: client.Registry;
  httpMiddleware: RequestHandler;
  /** A request served outside Express (the agent fast lane). */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  reconcilePass(outcome: 'done' | 'requeued' | 'failed', seconds: number): void;
}

const PREFIX = 'strata_control_plane_';
/** Event-loop delay is sampled this often while /metrics is scraped (prom-client's precision). */
const LOOP_SAMPLE_MS = 10;
/** ... and stops this long after the last scrape. */
const LOOP_IDLE_AFTER_MS = 5 * 60_000;
const LOOP_GAUGES = {
  min: 'The minimum recorded event loop delay.',
  max: 'The maximum recorded event loop delay.',
  mean: 'The mean of the recorded event loop delays.',
  stddev: 'The standard deviation of the recorded event loop delays.',
  p50: 'The 50th percentile of the recorded event loop delays.',
  p90: 'The 90th percentile of the recorded event loop delays.',
  p99: 'The 99th percentile of the recorded event loop delays.',
} as const;

/**
 * prom-client's event-loop delay gauges, sampled only while someone scrapes
 * /metrics. prom-client samples every 10 ms from the start, forever: a timer
 * that woke an idle control plane 100 times a second, ~3 ms of CPU a second
 * (measured on the 2-core development machine; 0.1 ms with it off). Here the
 * sampling starts at the first scrape and stops 5 minutes after the last, so
 * the first scrape after a pause reports only the lag measured at that scrape.
 */
function scrapedEventLoopDelay(registry: client.Registry): void {
  let histogram: IntervalHistogram | undefined;
  let idle: NodeJS.Timeout | undefined;
  const gauges = Object.fromEntries(Object.entries(LOOP_GAUGES).map(([k, help]) => [k, new client.Gauge({ name: `${PREFIX}nodejs_eventloop_lag_${k}_seconds`, help, registers: [] })]));
  const lag = new client.Gauge({
    name: `${PREFIX}nodejs_eventloop_lag_seconds`, help: 'Lag of event loop in seconds.', registers: [registry],
    // One collect sets every gauge (this one is registered, and so collected, first).
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => lag.set(Number(process.hrtime.bigint() - start) / 1e9));
      if (histogram && histogram.count > 0) {
        gauges.min!.set(histogram.min / 1e9);
        gauges.max!.set(histogram.max / 1e9);
        gauges.mean!.set(histogram.mean / 1e9);
        gauges.stddev!.set(histogram.stddev / 1e9);
        gauges.p50!.set(histogram.percentile(50) / 1e9);
        gauges.p90!.set(histogram.percentile(90) / 1e9);
        gauges.p99!.set(histogram.percentile(99) / 1e9);
      }
      if (!histogram) {
        histogram = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
        histogram.enable();
      }
      histogram.reset();
      clearTimeout(idle);
      idle = setTimeout(() => {
        histogram?.disable();
        histogram = undefined;
      }, LOOP_IDLE_AFTER_MS).unref();
    },
  });
  for (const g of Object.values(gauges)) registry.registerMetric(g);
}

export function createControlPlaneMetrics(d: { pool: pg.Pool; ingest: MetricsIngest }): ControlPlaneMetrics {
  const registry = new client.Registry();
  // prom-client's own event-loop histogram gets a precision that never fires (its gauges are replaced below).
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX, eventLoopMonitoringPrecision: 2 ** 31 - 1 });
  // Gauges that prom-client names `_total`: promtool (rightly) flags them; the handle counts are not worth the lint noise.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(`${PREFIX}${name}`);
  }
  for (const name of ['seconds', ...Object.keys(LOOP_GAUGES).map((k) => `${k}_seconds`)]) registry.removeSingleMetric(`${PREFIX}nodejs_eventloop_lag_${name}`);
  scrapedEventLoopDelay(registry);

  const http = new client.Histogram({
    name: 'strata_http_request_duration_seconds', help: 'API request latency by route pattern, method and status class.',
    labelNames: ['method', 'route', 'status'] as const, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
    registers: [registry],
  });
  const passes = new client.Counter({
    name: 'strata_reconcile_passes_total', help: 'Reconcile passes by outcome (done: nothing left to do; requeued: will pass again).',
    labelNames: ['outcome'] as const, registers: [registry],
  });
  const passSeconds = new client.Histogram({
    name: 'strata_reconcile_pass_duration_seconds', help: 'Duration of one reconcile pass.', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  new client.Gauge({
    name: 'strata_task_queue_depth', help: 'Agent tasks not finished, by state (pending, leased).', labelNames: ['state'] as const, registers: [registry],
    async collect() {
      this.reset();
      this.set({ state: 'pending' }, 0);
      this.set({ state: 'leased' }, 0);
      const r = await d.pool.query("SELECT state, count(*)::int AS n FROM tasks WHERE state IN ('pending', 'leased') GROUP BY state");
      for (const row of r.rows) this.set({ state: row.state }, row.n);
    },
  });
  const s = d.ingest.stats;
  new client.Counter({ name: 'strata_metrics_samples_ingested_total', help: 'Instance metric samples accepted from agents.', registers: [registry], collect() { this.reset(); this.inc(s.samples); } });
  new client.Counter({ name: 'strata_metrics_samples_rejected_total', help: 'Instance metric samples refused (unknown instance, wrong node, too old).', registers: [registry], collect() { this.reset(); this.inc(s.rejected); } });
  new client.Counter({
    name: 'strata_metrics_rows_written_total', help: 'Rows written to PostgreSQL by table.', labelNames: ['table'] as const, registers: [registry],
    collect() {
      this.reset();
      this.inc({ table: 'metric_instance_1s' }, s.rowsWritten.instance1s);
      this.inc({ table: 'metric_instance_1m' }, s.rowsWritten.instance1m);
      this.inc({ table: 'metric_node_1s' }, s.rowsWritten.node1s);
      this.inc({ table: 'metric_node_1m' }, s.rowsWritten.node1m);
    },
  });
  new client.Counter({ name: 'strata_metrics_rows_dropped_total', help: 'Metric rows dropped because PostgreSQL could not keep up or failed.', registers: [registry], collect() { this.reset(); this.inc(s.rowsDropped); } });
  new client.Gauge({ name: 'strata_metrics_write_queue_rows', help: 'Metric rows waiting to be written to PostgreSQL.', registers: [registry], collect() { this.set(s.queued); } });

  const httpMiddleware: RequestHandler = (req, res, next) => {
    const end = http.startTimer();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path as string}` : req.baseUrl || 'unmatched';
      end({ method: req.method, route: route.startsWith('/') ? route : 'unmatched', status: `${Math.floor(res.statusCode / 100)}xx` });
    });
    next();
  };

  return {
    registry,
    httpMiddleware,
    observeHttp(method, route, status, seconds) {
      http.observe({ method, route, status: `${Math.floor(status / 100)}xx` }, seconds);
    },
    reconcilePass(outcome, seconds) {
      passes.inc({ outcome });
      passSeconds.observe(seconds);
    },
  };
}
