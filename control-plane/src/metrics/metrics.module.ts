/** Builds the live-metrics pieces from their dependencies (called by main.ts). */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import { F } from './fields';
import { InstanceDirectory } from './instance-directory';
import { MetricsStore } from './metrics.store';
import { MetricsIngest } from './metrics-ingest';
import { MetricsQuery } from './metrics-query';
import { MetricsStreams } from './metrics-stream';
import { createControlPlaneMetrics } from './control-plane.metrics';
import { metricsRoutes } from '../routes/metrics.routes';
import { agentMetricsRoutes, pushMetricsHandler } from '../routes/agent-metrics.routes';
import type { ObservedState } from '../observed/observed-state';
import type { LiveNotice } from '../live/live-feed';
import type { EventStreams } from '../http/event-streams';

/** The scrape token: STRATA_METRICS_TOKEN, else `<home>/metrics-token` (created once, 0600). */
function scrapeToken(home: string, configured?: string): { token: string; file?: string } {
  if (configured) return { token: configured };
  const file = path.join(home, 'metrics-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), file };
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const token = `smt_${randomBytes(24).toString('hex')}`;
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return { token, file };
}

export function createMetricsModule(d: { pool: pg.Pool; log: Logger; config: Config; clusters: ClusterStore; nodes: NodeStore; observed: ObservedState; eventStreams: EventStreams }) {
  const m = d.config.metrics;
  const directory = new InstanceDirectory(d.pool);
  const store = new MetricsStore(d.pool, { rawRetentionHours: m.rawRetentionHours, rollupRetentionDays: m.rollupRetentionDays });
  const ingest = new MetricsIngest({ directory, store, log: d.log, hotSeconds: m.hotSeconds });
  const query = new MetricsQuery({ hot: ingest.hot, directory, store, hotSeconds: m.hotSeconds, rawRetentionSec: m.rawRetentionHours * 3600 });
  const streams = new MetricsStreams(query, d.eventStreams);
  const cpMetrics = createControlPlaneMetrics({ pool: d.pool, ingest });
  const token = scrapeToken(d.config.home, m.scrapeToken);
  const pushMetrics = pushMetricsHandler({ nodes: d.nodes, ingest, observed: d.observed });
  return {
    scrapeTokenFile: token.file,
    /** POST /v1/agent/metrics's handler, for the agent fast lane (the Express route uses the same one). */
    pushMetrics,
    /** A change notice from the live feed (null: changes may have been missed): instances or clusters reload the directory. */
    liveChange(notice: LiveNotice | null): void {
      if (!notice || notice.k === 'topology' || notice.k === 'cluster' || notice.k === 'cluster-deleted') directory.changed();
    },
    /** The newest keys and used memory an instance reported (hot window), or null. */
    latestData(instanceId: string): { keys: number; bytes: number } | null {
      const ring = ingest.hot.instances.get(instanceId);
      if (!ring || ring.latest < 0) return null;
      for (let sec = ring.latest; sec > ring.latest - 10; sec--) {
        const row = ring.get(sec);
        if (row && Number.isFinite(row[F.keys]!) && Number.isFinite(row[F.memory_used]!)) return { keys: row[F.keys]!, bytes: row[F.memory_used]! };
      }
      return null;
    },
    /**
     * A cluster's newest second in the hot window that every instance has reported (else the
     * fullest of the last three), as instance rows; null when none of them has one.
     */
    latestClusterSecond(clusterId: string): { sec: number; rows: Float32Array[] } | null {
      const rings = directory.ofCluster(clusterId).map((i) => ingest.hot.instances.get(i.id)).filter((r) => !!r);
      const newest = Math.max(-1, ...rings.map((r) => r.latest));
      let best: { sec: number; rows: Float32Array[] } | null = null;
      for (let sec = newest; sec > newest - 3 && sec >= 0; sec--) {
        const rows = rings.map((r) => r.get(sec)).filter((r): r is Float32Array => !!r);
        if (rows.length === rings.length) return { sec, rows };
        if (rows.length > (best?.rows.length ?? 0)) best = { sec, rows };
      }
      return best;
    },
    /** Per-shard load and memory over the last seconds (diagnostics' heat view). */
    shardLoad: (clusterId: string, windowSec: number) => query.shardLoad(clusterId, windowSec),
    /** The newest second of clusters and nodes (hot window). */
    current: { clusters: (ids: string[]) => query.currentClusters(ids), nodes: (ids: string[]) => query.currentNodes(ids) },
    cpMetrics,
    app: {
      agentRouter: agentMetricsRoutes({ nodes: d.nodes, push: pushMetrics }),
      router: () => metricsRoutes({
        clusters: d.clusters, nodes: d.nodes, query, streams, ingest, directory, cpMetrics, scrapeToken: token.token,
        observedInstances: () => d.observed.freshInstances(),
      }),
      httpMiddleware: cpMetrics.httpMiddleware,
    },
    async start() {
      directory.start();
      await ingest.start();
    },
    async stop() {
      streams.stop();
      directory.stop();
      await ingest.stop();
    },
  };
}
