import { Router } from 'express';
import type { AgentMetricsBatch } from '@strata/api';
import { mountOperation } from '../http/operation-router';
import type { NodeStore } from '../stores/node.store';
import type { MetricsIngest } from '../metrics/metrics-ingest';
import type { ObservedState } from '../observed/observed-state';
import { acceptStatusReport } from '../services/agent-status';

export interface AgentMetricsDeps {
  nodes: NodeStore;
  ingest: MetricsIngest;
  observed: ObservedState;
}

/** A node's push: its samples, and in steady state its status report with them. Also served by the agent fast lane. */
export const pushMetricsHandler = (d: AgentMetricsDeps) => async (nodeId: string, batch: AgentMetricsBatch) => {
  if (batch.status) await acceptStatusReport(d, nodeId, batch.status);
  return d.ingest.ingest(nodeId, batch);
};

/** POST /v1/agent/metrics with the node credential (looked up once per 30 s by the node store). */
export function agentMetricsRoutes(d: { nodes: NodeStore; push: ReturnType<typeof pushMetricsHandler> }): Router {
  const r = Router();
  const { push } = d;
  mountOperation(r, '/v1/agent/metrics', 'pushAgentMetrics', async ({ req, body: batch }) => push(req.node!.id, batch));
  return r;
}
