import express, { type Express } from 'express';
import cookieParser from 'cookie-parser';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { buildOpenApiDocument } from '@strata/api/openapi';
import { errorHandler, notFoundHandler } from './problem.middleware';
import { requireUser, type AuthDeps } from '../auth/auth.middleware';
import { clusterRoutes, type ClusterRoutesDeps } from '../routes/cluster.routes';
import { operationRoutes } from '../routes/operation.routes';
import { nodeRoutes, type NodeRoutesDeps } from '../routes/node.routes';
import { organizationRoutes } from '../routes/organization.routes';
import { sessionRoutes } from '../routes/session.routes';
import { agentRoutes, type AgentRoutesDeps } from '../routes/agent.routes';
import { capacityRoutes } from '../routes/capacity.routes';
import type { LiveFeed } from '../live/live-feed';
import type { Router, RequestHandler } from 'express';

export interface AppDeps extends ClusterRoutesDeps, NodeRoutesDeps, AgentRoutesDeps {
  pool: pg.Pool;
  log: Logger;
  authDeps: AuthDeps;
  consoleDir: string;
  onOperationControl?: (clusterId: string) => void;
  /** Live metrics (issue 9): agent push endpoint, metrics API + /metrics, API latency middleware. */
  metrics?: { agentRouter: Router; router: (user: RequestHandler) => Router; httpMiddleware: RequestHandler };
  /** Live changes of clusters and operations (issue 12): GET /v1/events/stream. */
  live: LiveFeed;
}

export function createApp(d: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  if (d.metrics) app.use(d.metrics.httpMiddleware);
  app.use(express.json({ limit: '1mb' }));
  app.use(cookieParser());

  const openapi = buildOpenApiDocument();
  app.get('/healthz', async (_req, res) => {
    await d.pool.query('SELECT 1');
    res.json({ status: 'ok' });
  });
  app.get('/v1/openapi.json', (_req, res) => void res.json(openapi));

  app.use('/v1/session', sessionRoutes({ auth: d.auth, secureCookies: false }));
  if (d.metrics) app.use('/v1/agent/metrics', d.metrics.agentRouter);
  app.use('/v1/agent', agentRoutes(d));

  const user = requireUser(d.authDeps);
  if (d.metrics) app.use(d.metrics.router(user));
  app.use('/v1/clusters', user, clusterRoutes(d));
  app.use('/v1/operations', user, operationRoutes(d));
  app.use('/v1/nodes', user, nodeRoutes(d));
  app.use('/v1/capacity', user, capacityRoutes({ placementNodes: () => d.service.placementNodes(d.pool) }));
  app.get('/v1/events/stream', user, (req, res) => d.live.open(req, res, req.principal!.organizationId));
  app.use('/v1', user, organizationRoutes(d));
  app.use('/v1', notFoundHandler);

  serveConsole(app, d.consoleDir);
  app.use(notFoundHandler);
  app.use(errorHandler(d.log));
  return app;
}

/** The built console at `/`, with SPA fallback; a placeholder when it is not built. */
function serveConsole(app: Express, dir: string): void {
  const index = path.join(dir, 'index.html');
  app.use(express.static(dir, { index: false, maxAge: '1h', setHeaders: (res, file) => {
    if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
  } }));
  app.get(/^\/(?!v1\/|healthz).*/, (_req, res) => {
    if (existsSync(index)) return void res.setHeader('Cache-Control', 'no-cache').sendFile(index);
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strata</title></head>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto"><h1>Strata</h1>
<p>The control plane is running. The console is not built yet: run <code>npm run build -w @strata/console</code>.</p>
<p>API: <a href="/v1/openapi.json">/v1/openapi.json</a></p></body></html>`);
  });
}
