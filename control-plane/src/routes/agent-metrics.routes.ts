import { Router, type RequestHandler } from 'express';
import { mountOperation } from '../http/operation-router';
import { unauthorized } from '../errors';
import { hashToken } from '../crypto/tokens';
import type { NodeStore, NodeRow } from '../stores/node.store';
import type { MetricsIngest } from '../metrics/metrics-ingest';

/** How long a node credential stays cached for metrics pushes (1,000 nodes push every second). */
const CREDENTIAL_CACHE_MS = 30_000;

/** POST /v1/agent/metrics: a node pushes its samples with its node credential. */
export function agentMetricsRoutes(d: { nodes: NodeStore; ingest: MetricsIngest }): Router {
  const r = Router();
  const cache = new Map<string, { node: NodeRow; until: number }>();

  const node: RequestHandler = async (req, _res, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m) throw unauthorized('Agents must send their node credential as a Bearer token.');
    const hash = hashToken(m[1]!);
    const hit = cache.get(hash);
    if (hit && hit.until > Date.now()) {
      req.node = hit.node;
      return next();
    }
    const found = await d.nodes.byCredential(hash);
    if (!found) throw unauthorized('Unknown node credential; re-register the agent with a new join token.');
    if (cache.size > 100_000) cache.clear();
    cache.set(hash, { node: found, until: Date.now() + CREDENTIAL_CACHE_MS });
    req.node = found;
    next();
  };

  mountOperation(r, '/v1/agent/metrics', 'pushAgentMetrics', async ({ req, body: batch }) => d.ingest.ingest(req.node!.id, batch), { before: [node] });
  return r;
}
