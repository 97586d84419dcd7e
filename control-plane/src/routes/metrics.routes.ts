/**
 * Metrics API: history per cluster and node, the live SSE stream, current
 * values for the clusters and nodes lists, and Prometheus's /metrics.
 */
import { Router, type RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { NODE_METRICS, type ObservedInstance, type ClusterCurrentMetricsList, type ClusterMetric, type NodeCurrentMetricsList } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation, mountRaw } from '../http/operation-router';
import { notFound, unauthorized } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { MetricsQuery } from '../metrics/metrics-query';
import { parseTime } from '../metrics/time-range';
import type { MetricsStreams } from '../metrics/metrics-stream';
import type { MetricsIngest } from '../metrics/metrics-ingest';
import type { InstanceDirectory } from '../metrics/instance-directory';
import { expositionChunks } from '../metrics/prometheus.exposition';
import { certificateExpiryExposition } from '../metrics/certificate-expiry.exposition';
import type { ControlPlaneMetrics } from '../metrics/control-plane.metrics';

export interface MetricsRoutesDeps {
  clusters: ClusterStore;
  nodes: NodeStore;
  query: MetricsQuery;
  streams: MetricsStreams;
  ingest: MetricsIngest;
  directory: InstanceDirectory;
  cpMetrics: ControlPlaneMetrics;
  scrapeToken: string;
  /** What agents report of every instance now (the certificate expiry gauge). */
  observedInstances: () => Iterable<ObservedInstance>;
}

const DEFAULT_STREAM: ClusterMetric[] = ['ops', 'ops_read', 'ops_write', 'latency_p50', 'latency_p99', 'memory_used', 'clients'];
const digest = (s: string) => createHash('sha256').update(s).digest();

export function metricsRoutes(d: MetricsRoutesDeps): Router {
  const r = Router();
  const nowSec = () => Math.floor(Date.now() / 1000);

  const cluster = async (orgId: string, raw: string | undefined) => {
    const c = await d.clusters.get(parseUuid(raw, 'Cluster'), orgId);
    if (!c) throw notFound('Cluster');
    return c;
  };

  mountOperation(r, '', 'getClusterMetrics', async (input) => {
    const { req } = input;
    const c = await cluster(req.principal!.organizationId, req.params.id as string);
    const q = input.query;
    const now = nowSec();
    const plan = d.query.plan({ from: parseTime(q.from, now, 'from'), to: parseTime(q.to, now, 'to'), step: q.step });
    return d.query.cluster(c.id, q.metric, q.by, plan);
  });

  mountRaw(r, '', 'streamClusterMetrics', async (input) => {
    const { req, res } = input;
    const c = await cluster(req.principal!.organizationId, req.params.id as string);
    const q = input.query;
    d.streams.open(req, res, { clusterId: c.id, metrics: q.metric ?? DEFAULT_STREAM, by: q.by });
  });

  // Host load includes every organization's instances: platform admins only.
  mountOperation(r, '', 'getNodeMetrics', async (input) => {
    const id = parseUuid(input.req.params.id as string, 'Node');
    if (!(await d.nodes.list()).some((n) => n.id === id)) throw notFound('Node');
    const q = input.query;
    const now = nowSec();
    const plan = d.query.plan({ from: parseTime(q.from, now, 'from'), to: parseTime(q.to, now, 'to'), step: q.step });
    return d.query.node(id, q.metric ?? [...NODE_METRICS], plan);
  });

  mountOperation(r, '', 'listClusterCurrentMetrics', async ({ req }) => {
    const ids = (await d.clusters.list(req.principal!.organizationId)).map((c) => c.id);
    const out: ClusterCurrentMetricsList = { items: d.query.currentClusters(ids) };
    return out;
  });

  mountOperation(r, '', 'listNodeCurrentMetrics', async ({ req }) => {
    const ids = req.principal!.isPlatformAdmin ? (await d.nodes.list()).map((n) => n.id) : [];
    const out: NodeCurrentMetricsList = { items: d.query.currentNodes(ids) };
    return out;
  });

  // The scrape token is checked here (a timing-safe compare), not by the user chain.
  mountRaw(r, '', 'prometheusMetrics', async ({ req, res }) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m || !timingSafeEqual(digest(m[1]!), digest(d.scrapeToken))) {
      throw unauthorized('Send the scrape token (STRATA_METRICS_TOKEN or .strata/metrics-token) as `Authorization: Bearer <token>`.');
    }
    const own = await d.cpMetrics.registry.metrics();
    res.status(200).type('text/plain; version=0.0.4; charset=utf-8');
    // Streamed chunk by chunk, yielding between chunks: thousands of instances make tens of megabytes.
    for await (const chunk of expositionChunks(d.ingest.prom, d.directory, Date.now())) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    res.write(certificateExpiryExposition(d.observedInstances(), d.directory));
    res.end(own);
  });

  return r;
}
