import express, { type Express } from 'express';
import cookieParser from 'cookie-parser';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { buildOpenApiDocument } from '@strata/api/openapi';
import { errorHandler, notFoundHandler } from './problem.middleware';
import { requireNode, requireUser, type AuthDeps } from '../auth/auth.middleware';
import { clusterRoutes, type ClusterRoutesDeps } from '../routes/cluster.routes';
import { operationRoutes } from '../routes/operation.routes';
import { nodeRoutes, type NodeRoutesDeps } from '../routes/node.routes';
import { organizationRoutes } from '../routes/organization.routes';
import { userRoutes } from '../routes/user.routes';
import { tokenRoutes } from '../routes/token.routes';
import { auditRoutes } from '../routes/audit.routes';
import { auditChanges } from '../auth/audit.middleware';
import { mountOperation, mountRaw, useAuthenticators } from './operation-router';
import type { AuditStore } from '../stores/audit.store';
import { sessionRoutes } from '../routes/session.routes';
import { agentRoutes, type AgentRoutesDeps } from '../routes/agent.routes';
import { capacityRoutes } from '../routes/capacity.routes';
import type { LiveFeed } from '../live/live-feed';
import type { Router, RequestHandler } from 'express';
import type { ApiLimits } from '../config';
import { addressLimit, callerLimit } from './rate-limits';
import { SignInThrottle } from '../auth/sign-in-throttle';

export interface AppDeps extends ClusterRoutesDeps, NodeRoutesDeps, AgentRoutesDeps {
  pool: pg.Pool;
  log: Logger;
  authDeps: AuthDeps;
  /** Who changed what (issue 11). */
  audit: AuditStore;
  consoleDir: string;
  onOperationControl?: (clusterId: string) => void;
  /** Live metrics (issue 9): agent push endpoint, metrics API + /metrics, API latency middleware. */
  metrics?: { agentRouter: Router; router: () => Router; httpMiddleware: RequestHandler };
  /** Live changes of clusters and operations (issue 12): GET /v1/events/stream. */
  live: LiveFeed;
  /** Benchmarks (issue 10): user routes under /v1 and the workers' report route under /v1/agent. */
  benchmarks?: { router: Router; agentRouter: Router };
  /** Node disk profiles: user routes under /v1 and the agents' report route under /v1/agent. */
  diskProfiles?: { router: Router; agentRouter: Router };
  backups?: { router: Router; taskShouldStop?: (taskId: string) => Promise<boolean> };
  /** Request rates, event streams and sign-in failures one caller is allowed. */
  limits: ApiLimits;
  /** Served over HTTPS: the session cookie is `Secure`. */
  secureCookies?: boolean;
  /** Alert rules, alerts and notification channels under /v1. */
  alerts?: { router: Router };
  /** Database users of clusters: routes under /v1/clusters/{id}/users. */
  databaseUsers?: { router: Router };
  clientCertificates?: { router: Router };
  diagnostics?: { router: Router };
}

/** Largest request body accepted (agents' metric batches are the biggest legitimate bodies). */
export const BODY_LIMIT = 1024 * 1024;

export function createApp(d: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  if (d.metrics) app.use(d.metrics.httpMiddleware);
  app.use(addressLimit(d.limits));
  // Bigger bodies are answered 413 payload_too_large before any handler runs.
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(cookieParser());

  // Each route authenticates as its OPERATION_TABLE entry's `auth` says (mountOperation): once, and
  // only for routes that exist, so an unknown path is a 404 whoever asks.
  const authenticateUser = requireUser(d.authDeps);
  const audit = auditChanges(d.audit, d.log);
  const perCaller = callerLimit(d.limits);
  useAuthenticators(app, {
    user: (req, res, next) => authenticateUser(req, res, (err?: unknown) => (err ? next(err)
      : perCaller(req, res, (err2?: unknown) => (err2 ? next(err2) : audit(req, res, next))))),
    node: requireNode(d.nodes),
  });

  // Built on first request: it costs about 0.3 s of CPU, at every start otherwise.
  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;
  mountOperation(app, '', 'health', async () => {
    await d.pool.query('SELECT 1');
    return { status: 'ok' as const };
  });
  app.get('/v1/openapi.json', (_req, res) => void res.json((openapi ??= buildOpenApiDocument())));

  app.use('/v1/session', sessionRoutes({
    auth: d.auth, audit: d.audit, secureCookies: d.secureCookies ?? false,
    throttle: new SignInThrottle(d.pool, { maxFailures: d.limits.signInMaxFailures, lockMs: d.limits.signInLockMs }),
  }));
  if (d.metrics) app.use('/v1/agent/metrics', d.metrics.agentRouter);
  if (d.benchmarks) app.use('/v1/agent', d.benchmarks.agentRouter);
  if (d.diskProfiles) app.use('/v1/agent', d.diskProfiles.agentRouter);
  app.use('/v1/agent', agentRoutes(d));

  if (d.metrics) app.use(d.metrics.router());
  if (d.benchmarks) app.use('/v1', d.benchmarks.router);
  if (d.diskProfiles) app.use('/v1', d.diskProfiles.router);
  if (d.backups) app.use('/v1', d.backups.router);
  if (d.alerts) app.use('/v1', d.alerts.router);
  if (d.databaseUsers) app.use('/v1', d.databaseUsers.router);
  if (d.clientCertificates) app.use('/v1', d.clientCertificates.router);
  if (d.diagnostics) app.use('/v1', d.diagnostics.router);
  app.use('/v1/clusters', clusterRoutes(d));
  app.use('/v1/operations', operationRoutes(d));
  app.use('/v1/nodes', nodeRoutes(d));
  app.use('/v1/capacity', capacityRoutes({
    placementNodes: () => d.service.placementNodes(d.pool),
    changeCapacity: (org, clusterId, q, admin) => d.topology.changeCapacity(org, clusterId, q, admin),
  }));
  mountRaw(app, '', 'streamEvents', ({ req, res }) => d.live.open(req, res, req.principal!.organizationId));
  app.use('/v1/users', userRoutes(d));
  app.use('/v1/tokens', tokenRoutes(d));
  app.use('/v1/audit', auditRoutes(d));
  app.use('/v1', organizationRoutes(d));
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
