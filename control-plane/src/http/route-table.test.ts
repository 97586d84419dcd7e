import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildOpenApiDocument } from '@strata/api/openapi';
import { OPERATION_TABLE, type OperationDef } from '@strata/api';
import { createApp } from './app';
import { mountedRoutes } from './route-list';
import { loadConfig } from '../config';
import { createMetricsModule } from '../metrics/metrics.module';
import { createBenchmarkModule } from '../benchmarks/benchmark.module';
import { createBackupModule } from '../backups/backup.module';
import { createDiskProfileModule } from '../disk-profiles/disk-profile.module';
import { createAlertModule } from '../alerts/alert.module';
import { createDatabaseUserModule } from '../database-users/database-user.module';
import { createClientCertificateModule } from '../client-certificates/client-certificate.module';
import { createDiagnosticsModule } from '../diagnostics/diagnostics.module';

/** Routes that are deliberately not API operations. */
const UNDOCUMENTED = new Set(['GET /v1/openapi.json']);

function buildApp() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'strata-routes-'));
  const config = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:1/x', STRATA_HOME: home, STRATA_METRICS_TOKEN: 'route-table-test-token' });
  const fake = {} as any;
  const log = pino({ level: 'silent' });
  const metrics = createMetricsModule({ pool: fake, log, config, clusters: fake, nodes: fake, observed: fake, eventStreams: fake });
  const benchmarks = createBenchmarkModule({ pool: fake, log, clusters: fake, nodes: fake, tasks: fake, observed: fake, notifyNode: () => {}, eventStreams: fake });
  const backups = createBackupModule({ pool: fake, log, box: fake, clusters: fake, nodes: fake, tasks: fake, observed: fake, notifyNode: () => {}, localStorage: { kind: 'local', root: home } });
  const diskProfiles = createDiskProfileModule({ pool: fake, clusters: fake, nodes: fake, tasks: fake, observed: fake, current: fake, notifyNode: () => {}, eventStreams: fake });
  const alerts = createAlertModule({
    pool: fake, log, box: fake, clusters: fake, latest: () => null, evaluation: config.alerts.evaluation, dispatch: config.alerts.dispatch, smtp: null,
  });
  const databaseUsers = createDatabaseUserModule({ pool: fake, clusters: fake, observed: fake, box: fake, requestPass: async () => {} });
  const clientCertificates = createClientCertificateModule({ pool: fake, clusters: fake, box: fake, observed: fake, events: fake, requestPass: async () => {} });
  const diagnostics = createDiagnosticsModule({ pool: fake, clusters: fake, nodes: fake, tasks: fake, observed: fake, notifyNode: () => {}, shardLoad: fake });
  // Registration only: no handler runs, so the stores can be empty fakes.
  const app = createApp({
    ...fake, pool: fake, log, auth: fake, audit: fake, consoleDir: home, metrics: metrics.app, benchmarks: benchmarks.app, diskProfiles: diskProfiles.app, backups, alerts, databaseUsers, clientCertificates, diagnostics,
    nodeOfflineAfterMs: 5000, nodeDownAfterMs: 15000, authDeps: { auth: fake }, limits: config.limits,
  });
  rmSync(home, { recursive: true, force: true });
  return app;
}

describe('one route table: the Express router and openapi.json agree', () => {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { security?: { bearer: string[] }[] }>> };
  const documented = new Map<string, string | undefined>();
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) documented.set(`${m.toUpperCase()} ${p}`, op.security?.[0]?.bearer?.[0]);
  }
  const routes = mountedRoutes(buildApp());
  const mounted = new Map(routes.map((r) => [`${r.method} ${r.path}`, r.scope]));

  it('finds the routes', () => {
    expect(mounted.size).toBeGreaterThan(30);
    expect(mounted.has('DELETE /v1/clusters/{id}')).toBe(true);
  });

  it('every router route is mounted from OPERATION_TABLE, at the method and path the table declares', () => {
    const stray = routes.filter((r) => !UNDOCUMENTED.has(`${r.method} ${r.path}`))
      .filter((r) => !r.operation || OPERATION_TABLE[r.operation].method.toUpperCase() !== r.method || OPERATION_TABLE[r.operation].path !== r.path)
      .map((r) => `${r.method} ${r.path}${r.operation ? ` (mounted as ${r.operation})` : ''}`);
    expect(stray).toEqual([]);
  });

  it('every OPERATION_TABLE entry is mounted exactly once', () => {
    const count = new Map<string, number>();
    for (const r of routes) if (r.operation) count.set(r.operation, (count.get(r.operation) ?? 0) + 1);
    expect(Object.keys(OPERATION_TABLE).filter((n) => count.get(n) !== 1)).toEqual([]);
  });

  it('every router route is in openapi.json', () => {
    expect([...mounted.keys()].filter((k) => !documented.has(k) && !UNDOCUMENTED.has(k))).toEqual([]);
  });

  it('every openapi.json operation is served by the router', () => {
    expect([...documented.keys()].filter((k) => !mounted.has(k))).toEqual([]);
  });

  it('each route declares the scope openapi.json documents (and routes without one document none)', () => {
    const mismatched = [...mounted].filter(([k]) => documented.has(k))
      .filter(([k, scope]) => scope !== documented.get(k))
      .map(([k, scope]) => `${k}: router ${scope ?? '(none)'}, openapi ${documented.get(k) ?? '(none)'}`);
    expect(mismatched).toEqual([]);
  });

  it('every route under /v1 except sign-in, the agent protocol and the spec itself declares a scope', () => {
    const open = routes.filter((r) => r.path.startsWith('/v1/') && !r.scope && !r.path.startsWith('/v1/agent') && !r.path.startsWith('/v1/session') && r.path !== '/v1/openapi.json');
    expect(open.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

describe('authentication comes from the table, once per route', () => {
  const routes = mountedRoutes(buildApp());

  it('each route passes exactly the authentication its `auth` declares (user, node) and none on a prefix', () => {
    const wrong = routes.filter((r) => r.operation).flatMap((r) => {
      const auth = (OPERATION_TABLE[r.operation!] as OperationDef).auth ?? 'user';
      const want = auth === 'user' || auth === 'node' ? [auth] : [];
      return JSON.stringify(r.authentication) === JSON.stringify(want) ? [] : [`${r.method} ${r.path}: ${JSON.stringify(r.authentication)}, table ${auth}`];
    });
    expect(wrong).toEqual([]);
  });

  it('sees a prefix authenticator when one is mounted (the check above can fail)', () => {
    const app = buildApp();
    const tagged = Object.assign((_q: unknown, _s: unknown, n: () => void) => n(), { authStep: 'requireUser' });
    (app as unknown as { router: { stack: unknown[] } }).router.stack.unshift({ handle: tagged, rawPath: '/' });
    const r = mountedRoutes(app).find((x) => x.path === '/v1/clusters' && x.method === 'POST')!;
    expect(r.authentication).toEqual(['requireUser', 'user']);
  });
});
