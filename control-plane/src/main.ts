/** Composition root of the control plane: config once, then everything passed in. */
import { OPERATION_TABLE, type StorageCredentials, type StorageRef } from '@strata/api';
import pg from 'pg';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { instanceCertValidityMs } from '@strata/engine';
import { loadConfig } from './config';
import { migrate } from './db/migrate';
import { inTransaction } from './db/tx';
import { SecretBox } from './crypto/secret-box';
import { AuthStore } from './stores/auth.store';
import { AuditStore } from './stores/audit.store';
import { NodeStore } from './stores/node.store';
import { ClusterStore } from './stores/cluster.store';
import { OperationStore } from './stores/operation.store';
import { TaskStore } from './stores/task.store';
import { EventStore } from './stores/event.store';
import { ObservedState } from './observed/observed-state';
import { TaskBroker } from './services/task-broker';
import { ClusterService } from './services/cluster.service';
import { TopologyService } from './services/topology.service';
import { Reconciler } from './reconciler/reconciler';
import { bootstrapAdmin } from './auth/bootstrap-admin';
import { currentPrincipal, type AuthDeps } from './auth/auth.middleware';
import { allows } from './auth/permissions';
import http from 'node:http';
import https from 'node:https';
import { loadServerTls } from './http/server-tls';
import { createApp } from './http/app';
import { EventStreams } from './http/event-streams';
import { agentFastLane } from './http/agent-fast-lane';
import { withRequestDeadline } from './http/request-deadline';
import { acceptStatusReport } from './services/agent-status';
import { Janitor } from './services/janitor';
import { OrphanSweeper } from './services/orphan-sweeper';
import { createMetricsModule } from './metrics/metrics.module';
import { EndpointDirectory } from './services/endpoint-directory';
import { LiveFeed } from './live/live-feed';
import { createBenchmarkModule } from './benchmarks/benchmark.module';
import { createDiskProfileModule } from './disk-profiles/disk-profile.module';
import { createBackupModule } from './backups/backup.module';
import { registerBackupMetrics } from './backups/backup.metrics';
import { createAlertModule } from './alerts/alert.module';
import { createDatabaseUserModule } from './database-users/database-user.module';
import { createClientCertificateModule } from './client-certificates/client-certificate.module';
import { desiredAcls } from './database-users/database-user.store';
import { createDiagnosticsModule } from './diagnostics/diagnostics.module';

function masterKey(home: string, hex?: string): Buffer {
  if (hex) return Buffer.from(hex, 'hex');
  const file = path.join(home, 'master.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, name: 'control-plane', redact: ['*.password', '*.credentials', '*.token'] });
  // Idle connections are kept 5 minutes, not pg's 10 s: the once-a-second work (passes, task polls, metric writes)
  // needs a few at once every few seconds, and reopening one costs PostgreSQL ~4.5 ms of CPU (fork, authentication,
  // catalog caches) plus ~1 ms here: 0.1-0.3 new sessions a second on an idle stack.
  // A bad certificate or key stops the start here, before anything else runs.
  const tls = config.tls ? loadServerTls(config.tls.certFile, config.tls.keyFile) : null;
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20, idleTimeoutMillis: 300_000 });
  pool.on('error', (err) => log.error({ err }, 'idle database client failed'));

  const applied = await migrate(pool);
  if (applied.length) log.info({ applied }, 'applied migrations');

  const box = new SecretBox(masterKey(config.home, config.masterKeyHex));
  const auth = new AuthStore(pool);
  const nodes = new NodeStore(pool);
  const clusters = new ClusterStore(pool);
  const operations = new OperationStore(pool);
  const tasks = new TaskStore(pool);
  const events = new EventStore(pool);
  const observed = new ObservedState(Date.now, config.nodeOfflineAfterMs);
  // Database users change through the API and ask the reconciler (created below) for a pass.
  const databaseUsers = createDatabaseUserModule({ pool, clusters, observed, box, requestPass: (id) => reconciler.request(id) });
  // Client certificates change what the instances trust and ask the reconciler for a pass.
  const clientCertificates = createClientCertificateModule({ pool, clusters, box, observed, events, requestPass: (id) => reconciler.request(id) });
  // The broker adds backup storage credentials to agents' tasks; the backup module owns them.
  let storageCredentials: ((ref: StorageRef) => Promise<StorageCredentials | undefined>) | undefined;
  const broker = new TaskBroker({
    tasks, clusters, box, nodes, endpointHost: config.endpoints.host, certificateValidityMs: instanceCertValidityMs(config.tlsRenewBeforeMs),
    databaseUsers: async (id) => desiredAcls(await databaseUsers.store.list(id)), clientTrustIssuers: (id) => clientCertificates.store.trustedIssuers(id), storageCredentials: (ref) => storageCredentials!(ref),
    importPassword: async (backupId) => {
      const sealed = await backups.store.importSecret(backupId);
      return sealed ? box.open(sealed) : undefined;
    },
  });
  const eventStreams = new EventStreams({ limits: { perPrincipal: config.limits.streamsPerUser, maxBufferedBytes: config.limits.streamMaxBufferBytes }, log });
  const metrics = createMetricsModule({ pool, log, config, clusters, nodes, observed, eventStreams });
  const benchmarks = createBenchmarkModule({ pool, log, clusters, nodes, tasks, observed, notifyNode: (id) => broker.notify(id), eventStreams });
  // When a node counts as offline and as down (node-liveness.ts): placement, backups and the nodes API ask the same rule.
  const liveness = { nodeOfflineAfterMs: config.nodeOfflineAfterMs, nodeDownAfterMs: config.nodeDownAfterMs, nodeDownConfirmedAfterMs: config.nodeDownConfirmedAfterMs };
  const backups = createBackupModule({
    pool, log, box, clusters, nodes, tasks, observed, events, notifyNode: (id) => broker.notify(id), localStorage: { kind: 'local', root: path.join(config.home, 'backups') },
    schedulerIntervalMs: config.backups.schedulerIntervalMs, uploadMaxBytes: config.backups.uploadMaxBytes, uploadIdleTimeoutMs: config.backups.uploadIdleTimeoutMs,
    liveness,
  });
  storageCredentials = (ref) => backups.storage.credentials(ref);
  registerBackupMetrics(metrics.cpMetrics.registry, backups.store);
  const alerts = createAlertModule({
    pool, log, box, clusters, latest: (id) => metrics.latestClusterSecond(id), evaluation: config.alerts.evaluation, dispatch: config.alerts.dispatch, smtp: config.alerts.smtp,
  });
  const diskProfiles = createDiskProfileModule({ pool, clusters, nodes, tasks, observed, current: metrics.current, notifyNode: (id) => broker.notify(id), eventStreams });
  const diagnostics = createDiagnosticsModule({
    pool, clusters, nodes, tasks, observed, notifyNode: (id) => broker.notify(id), shardLoad: (id, windowSec) => metrics.shardLoad(id, windowSec),
  });
  // The reconciler asks the service to place replacements; the service wakes the reconciler.
  let service: ClusterService | undefined;
  const reconciler = new Reconciler({
    clusters, nodes, tasks, operations, events, observed, box, log, notifyNode: (id) => broker.notify(id), healing: config.healing, nodeDownAfterMs: config.nodeDownAfterMs, nodeDownConfirmedAfterMs: config.nodeDownConfirmedAfterMs,
    timings: config.reconciler, faultFile: config.testFaultFile, tlsRenewBeforeMs: config.tlsRenewBeforeMs,
    replaceInstance: (cluster, lost) => service!.replaceInstance(cluster, lost),
    transaction: (fn) => inTransaction(pool, fn),
    addReplica: (cluster, draining, copies) => service!.addReplica(cluster, draining, copies),
    restoreSeed: (clusterId, shard) => backups.store.restoreSeed(clusterId, shard),
    restoreFiles: (clusterId) => backups.store.restoreFiles(clusterId),
    restoreOf: (clusterId) => backups.store.restoreOf(clusterId),
    databaseUsers: (clusterId) => databaseUsers.store.desired(clusterId),
    clientTrustIssuers: (clusterId) => clientCertificates.store.trustedIssuers(clusterId),
    onPass: (outcome, seconds) => metrics.cpMetrics.reconcilePass(outcome, seconds),
  });
  service = new ClusterService({
    pool, clusters, nodes, operations, box, observed, wake: (id) => reconciler.wake(id),
    liveness,
    endpointPortBase: config.endpoints.host ? config.endpoints.portBase : null,
    temporaryEngineMemory: (db) => backups.store.temporaryEngineMemory(db),
  });
  const endpoints = new EndpointDirectory({ pool, clusters, nodes, observed, ...config.endpoints });
  const assigned = await endpoints.assignMissing();
  if (assigned) log.info({ assigned }, 'gave existing clusters an endpoint port');
  const topology = new TopologyService({
    pool, clusters, nodes, operations, observed, placement: service, liveData: (id) => metrics.latestData(id), wake: (id) => reconciler.wake(id), box,
  });
  observed.onReport((_node, clusterIds, changed) => {
    for (const id of clusterIds) {
      if (changed.has(id)) void reconciler.request(id, false).catch((err) => log.error({ err, clusterId: id }, 'could not request a reconcile pass'));
      else reconciler.nudge(id);
    }
  });

  // An open event stream ends once its session or token no longer holds (sign-out, expiry, revocation, lost scope).
  const live = new LiveFeed({
    pool, clusters, operations, log, streams: eventStreams,
    revalidate: async (req) => {
      const p = await currentPrincipal(authDeps, req);
      return p && allows(p, 'clusters:read') ? p : null;
    },
  });
  // Instance placement and cluster names in the metrics directory are reloaded when the database announces a change.
  live.onChange((notice) => metrics.liveChange(notice));
  await live.start();

  const admin = await bootstrapAdmin({ pool, auth, home: config.home, adminEmail: config.adminEmail, log });
  const authDeps: AuthDeps = { auth, envAdmin: config.adminToken ? { token: config.adminToken, organizationId: admin.organizationId } : undefined };
  const app = createApp({
    pool, log, box, auth, nodes, clusters, operations, tasks, events, observed, broker, service, endpoints, topology,
    audit: new AuditStore(pool),
    onOperationControl: (id) => void clusters.markNeedsReconcile(id).then(() => reconciler.wake(id), (err) => log.error({ err }, 'could not request a pass')),
    consoleDir: config.consoleDir,
    metrics: metrics.app,
    live,
    benchmarks: benchmarks.app,
    diskProfiles: diskProfiles.app,
    backups,
    limits: config.limits,
    secureCookies: tls !== null,
    controlPlaneCaSha256: tls?.caSha256 ?? null,
    alerts,
    databaseUsers,
    clientCertificates,
    diagnostics,
    restores: backups.service,
    backupStore: backups.store,
    nodeOfflineAfterMs: config.nodeOfflineAfterMs,
    nodeDownAfterMs: config.nodeDownAfterMs,
    nodeDownConfirmedAfterMs: config.nodeDownConfirmedAfterMs,
    onNodeChanged: () => {
      reconciler.nodesChanged();
      void clusters.markAllNeedReconcile(['ready', 'degraded']).then(() => reconciler.wake(), (err) => log.error({ err }, 'could not request passes'));
    },
    // A task's outcome asks for a pass (stored), not just a look: the pass that saw its effect may have run before
    // it completed and found nothing to do, and what the outcome records (a repair's event) would wait for a recheck.
    onTaskDone: (id) => {
      void reconciler.request(id).catch((err) => log.error({ err, clusterId: id }, 'could not request a reconcile pass'));
      void backups.coordinator.tick();
      void diagnostics.service.settle(id).catch((err) => log.error({ err, clusterId: id }, 'could not settle key scans'));
    },
    authDeps,
  });

  // The agents' once-a-second requests skip Express (see agent-fast-lane.ts); everything else goes to the app.
  const handler = agentFastLane(app, {
    nodes, log, observe: metrics.cpMetrics.observeHttp,
    handlers: {
      pushAgentMetrics: metrics.pushMetrics, reportAgentStatus: (nodeId, report) => acceptStatusReport({ nodes, observed }, nodeId, report),
      getAgentEndpoints: () => endpoints.forAgents(),
    },
  });
  // Requests must arrive within STRATA_REQUEST_TIMEOUT_MS, except an RDB upload, bounded by idleness instead (request-deadline.ts).
  const uploadPath = OPERATION_TABLE.uploadBackup.path;
  const deadline = withRequestDeadline(handler, {
    totalMs: config.requestTimeoutMs, streamsBody: (req) => req.method === 'POST' && (req.url ?? '').split('?')[0] === uploadPath,
  });
  const server = tls ? https.createServer({ cert: tls.cert, key: tls.key }, deadline) : http.createServer(deadline);
  server.requestTimeout = 0;
  // Agents keep one connection and use it every second: idle connections are closed after 65 s (like common load
  // balancers), not Node's 5 s, which raced with a client sending on a connection the server was closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  reconciler.start();
  await metrics.start();
  await benchmarks.start();
  diskProfiles.start();
  backups.start();
  alerts.start();
  const janitor = new Janitor({ pool, log });
  janitor.start();
  const orphans = new OrphanSweeper({ clusters, nodes, tasks, observed, log, notifyNode: (id) => broker.notify(id) });
  orphans.start();
  log.info({
    url: `${tls ? 'https' : 'http'}://${config.host}:${port}`, adminTokenFile: admin.tokenFile,
    ...(tls ? { certificate: { names: tls.subjectAltName, validTo: tls.validTo }, agentPinSha256: tls.caSha256 } : {}),
  }, 'control plane listening');
  // Machine-readable line for launchers that pass STRATA_PORT=0.
  process.stdout.write(`STRATA_LISTENING ${port}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await live.stop();
    eventStreams.endAll();
    server.closeAllConnections();
    server.close();
    janitor.stop();
    orphans.stop();
    benchmarks.stop();
    backups.stop();
    alerts.stop();
    diskProfiles.stop();
    await reconciler.stop();
    await metrics.stop().catch((err) => log.error({ err }, 'metrics shutdown failed'));
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(`control plane failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
