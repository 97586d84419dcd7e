import { Router } from 'express';
import { mountOperation } from '../http/operation-router';
import { requireNode } from '../auth/auth.middleware';
import type { NodeStore } from '../stores/node.store';
import type { MetricsIngest } from '../metrics/metrics-ingest';

/** POST /v1/agent/metrics: a node pushes its samples with its node credential (looked up once per 30 s by the node store). */
export function agentMetricsRoutes(d: { nodes: NodeStore; ingest: MetricsIngest }): Router {
  const r = Router();
  mountOperation(r, '/v1/agent/metrics', 'pushAgentMetrics', async ({ req, body: batch }) => d.ingest.ingest(req.node!.id, batch), { before: [requireNode(d.nodes)] });
  return r;
}
