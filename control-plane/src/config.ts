/** The only module that reads the environment. Validated once at start. */
import { z } from 'zod';
import path from 'node:path';
import { DEFAULT_RENEW_BEFORE_DAYS } from '@strata/engine';
import { DEFAULT_TIMINGS as T, type ReconcilerTimings } from './reconciler/timings';
import { DEFAULT_EVALUATION as AE, type EvaluatorTimings } from './alerts/alert-evaluator';
import { DEFAULT_DISPATCH as ND, type DispatchTimings } from './alerts/notification-dispatcher';

const ms = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

const Env = z.object({
  DATABASE_URL: z.string().url(),
  STRATA_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  STRATA_HOST: z.string().default('127.0.0.1'),
  STRATA_HOME: z.string().default('.strata'),
  STRATA_ADMIN_TOKEN: z.string().min(16).optional(),
  STRATA_ADMIN_EMAIL: z.string().email().default('admin@strata.local'),
  STRATA_MASTER_KEY: z.string().regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)').optional(),
  STRATA_CONSOLE_DIR: z.string().optional(),
  STRATA_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'silent']).default('info'),
  STRATA_NODE_OFFLINE_AFTER_MS: z.coerce.number().int().min(1000).default(5000),
  STRATA_NODE_DOWN_AFTER_MS: z.coerce.number().int().min(1000).default(15_000),
  /** A node silent this long while its engines' cluster peers cannot reach them is down (node-liveness.ts). */
  STRATA_NODE_DOWN_CONFIRMED_AFTER_MS: z.coerce.number().int().min(1000).default(4500),
  STRATA_FAST_FAILOVER: z.enum(['true', 'false']).default('true'),
  STRATA_FAILOVER_GRACE_MS: z.coerce.number().int().min(0).default(5000),
  STRATA_REBALANCE_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  STRATA_ENDPOINT_HOST: z.string().min(1).optional(),
  STRATA_ENDPOINT_PORT_BASE: z.coerce.number().int().min(1).max(65000).default(6379),
  STRATA_METRICS_TOKEN: z.string().min(16).optional(),
  STRATA_METRICS_HOT_SECONDS: z.coerce.number().int().min(60).max(86_400).default(960),
  /** How often scheduled backups and retention are looked at. */
  STRATA_BACKUP_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** The largest RDB file POST /v1/backups/upload accepts (bytes; default 10 GiB). */
  STRATA_BACKUP_UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 ** 3),
  /** An RDB upload that sends no byte for this long is ended (408): its total duration is not bounded. */
  STRATA_BACKUP_UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** How long any other request may take to arrive in full (Node's requestTimeout, which this replaces; 0: none). */
  STRATA_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(300_000),
  STRATA_METRICS_RAW_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 31).default(6),
  STRATA_METRICS_ROLLUP_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Reconciler timings (reconciler/timings.ts says what each is).
  STRATA_RECONCILE_TICK_MS: ms(T.tickMs),
  STRATA_RECONCILE_REQUEUE_MS: ms(T.requeueMs, 0),
  STRATA_RECONCILE_SWEEP_MS: ms(T.sweepMs),
  STRATA_RECONCILE_SETTLED_RECHECK_MS: ms(T.settledRecheckMs),
  STRATA_RECONCILE_LEASE_MS: ms(T.leaseMs, 100),
  STRATA_RECONCILE_NODES_TTL_MS: ms(T.nodesTtlMs, 0),
  STRATA_RECONCILE_RETRY_BASE_MS: ms(T.retryBaseMs),
  STRATA_RECONCILE_RETRY_MAX_MS: ms(T.retryMaxMs),
  STRATA_UPDATE_HEADLESS_WAIT_MS: ms(T.headlessWaitMs, 0),
  STRATA_UPDATE_FORGET_WAIT_MS: ms(T.forgetWaitMs, 0),
  STRATA_UPDATE_MIGRATE_RETRY_BASE_MS: ms(T.migrateRetryBaseMs),
  STRATA_UPDATE_MIGRATE_REPORT_WAIT_MS: ms(T.migrateReportWaitMs, 0),
  STRATA_CREATE_REFORM_AFTER_MS: ms(T.reformAfterMs),
  // Alerts and notifications (docs/alerts.md).
  STRATA_ALERT_EVAL_MS: ms(AE.intervalMs, 50),
  STRATA_ALERT_RELOAD_MS: ms(AE.reloadMs, 100),
  STRATA_NOTIFY_TIMEOUT_MS: ms(ND.timeoutMs, 100),
  STRATA_NOTIFY_MAX_ATTEMPTS: ms(ND.maxAttempts, 1),
  STRATA_NOTIFY_RETRY_BASE_MS: ms(ND.backoffBaseMs, 10),
  STRATA_NOTIFY_RETRY_MAX_MS: ms(ND.backoffMaxMs, 10),
  STRATA_NOTIFY_CONCURRENCY: ms(ND.concurrency, 1),
  STRATA_NOTIFY_MAX_PENDING: ms(ND.maxPendingPerChannel, 1),
  STRATA_SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://[user:pass@]host[:port] or smtps://...').optional(),
  STRATA_SMTP_FROM: z.string().min(3).default('Strata <strata@localhost>'),
  /** Tests only: a file naming a fault point where the control plane kills itself (reconciler/fault-point.ts). */
  STRATA_TEST_FAULT_FILE: z.string().min(1).optional(),
  /** TLS clusters: an instance certificate is renewed this many days before it expires (docs/connect.md). */
  STRATA_TLS_RENEW_BEFORE_DAYS: z.coerce.number().int().min(1).max(1800, 'at most 1800 (half the validity of a cluster CA)').default(DEFAULT_RENEW_BEFORE_DAYS),
  STRATA_TLS_CERT: z.string().min(1).optional(),
  STRATA_TLS_KEY: z.string().min(1).optional(),
  STRATA_RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(0).default(6000),
  STRATA_RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(12_000),
  STRATA_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(60_000),
  STRATA_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).default(20),
  STRATA_STREAM_MAX_BUFFER_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  STRATA_SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  STRATA_SIGN_IN_LOCK_MS: z.coerce.number().int().min(100).default(15 * 60_000),
});

export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  home: string;
  adminToken?: string;
  adminEmail: string;
  masterKeyHex?: string;
  consoleDir: string;
  logLevel: z.infer<typeof Env>['STRATA_LOG_LEVEL'];
  nodeOfflineAfterMs: number;
  /** A node silent this long is down (an event says so). */
  nodeDownAfterMs: number;
  /** A node silent this long while its engines' peers cannot reach them is down (see node-liveness.ts). */
  nodeDownConfirmedAfterMs: number;
  healing: { fastFailover: boolean; failoverGraceMs: number; rebalanceAfterMs: number };
  /** Stable cluster endpoints: the host clients use (null: none) and the first port. */
  endpoints: { host: string | null; portBase: number };
  metrics: { scrapeToken?: string; hotSeconds: number; rawRetentionHours: number; rollupRetentionDays: number };
  reconciler: ReconcilerTimings;
  alerts: { evaluation: EvaluatorTimings; dispatch: DispatchTimings; smtp: { url: string; from: string } | null };
  /** Tests only: the fault-point file (STRATA_TEST_FAULT_FILE); unset in production. */
  testFaultFile: string | null;
  backups: { schedulerIntervalMs: number; uploadMaxBytes: number; uploadIdleTimeoutMs: number };
  /** How long a request may take to arrive in full (request-deadline.ts). */
  requestTimeoutMs: number;
  limits: ApiLimits;
  /** HTTPS: the PEM certificate chain and key files (null: plain HTTP). */
  tls: { certFile: string; keyFile: string } | null;
  /** TLS clusters: how long before its certificate expires an instance gets a fresh one. */
  tlsRenewBeforeMs: number;
}

/** What one caller may ask of the API (docs/api.md, "Limits"). */
export interface ApiLimits {
  /** Requests per window per token or signed-in user (0: no limit). */
  perToken: number;
  /** Requests per window per client address (0: no limit). */
  perIp: number;
  windowMs: number;
  /** Open event streams per user (or per token without a user). */
  streamsPerUser: number;
  /** Bytes an event stream may hold for a reader that does not keep up before it is dropped. */
  streamMaxBufferBytes: number;
  /** Failed sign-ins of one email in a row before it is locked, and for how long. */
  signInMaxFailures: number;
  signInLockMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.STRATA_TLS_CERT !== !e.STRATA_TLS_KEY) {
    throw new Error('invalid configuration:\n  STRATA_TLS_CERT and STRATA_TLS_KEY go together (a PEM certificate chain and its key): set both for HTTPS, neither for HTTP');
  }
  if (e.STRATA_NODE_DOWN_AFTER_MS <= e.STRATA_NODE_OFFLINE_AFTER_MS) {
    throw new Error('invalid configuration:\n  STRATA_NODE_DOWN_AFTER_MS must be greater than STRATA_NODE_OFFLINE_AFTER_MS (a node is offline before it is down)');
  }
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.STRATA_PORT,
    host: e.STRATA_HOST,
    home: path.resolve(e.STRATA_HOME),
    adminToken: e.STRATA_ADMIN_TOKEN,
    adminEmail: e.STRATA_ADMIN_EMAIL,
    masterKeyHex: e.STRATA_MASTER_KEY,
    consoleDir: path.resolve(e.STRATA_CONSOLE_DIR ?? path.join(repoRoot, 'console/dist')),
    logLevel: e.STRATA_LOG_LEVEL,
    nodeOfflineAfterMs: e.STRATA_NODE_OFFLINE_AFTER_MS,
    nodeDownAfterMs: e.STRATA_NODE_DOWN_AFTER_MS,
    nodeDownConfirmedAfterMs: e.STRATA_NODE_DOWN_CONFIRMED_AFTER_MS,
    healing: {
      fastFailover: e.STRATA_FAST_FAILOVER === 'true',
      failoverGraceMs: e.STRATA_FAILOVER_GRACE_MS,
      rebalanceAfterMs: e.STRATA_REBALANCE_AFTER_MS,
    },
    endpoints: { host: e.STRATA_ENDPOINT_HOST ?? null, portBase: e.STRATA_ENDPOINT_PORT_BASE },
    metrics: {
      scrapeToken: e.STRATA_METRICS_TOKEN, hotSeconds: e.STRATA_METRICS_HOT_SECONDS,
      rawRetentionHours: e.STRATA_METRICS_RAW_RETENTION_HOURS, rollupRetentionDays: e.STRATA_METRICS_ROLLUP_RETENTION_DAYS,
    },
    reconciler: {
      tickMs: e.STRATA_RECONCILE_TICK_MS,
      requeueMs: e.STRATA_RECONCILE_REQUEUE_MS,
      sweepMs: e.STRATA_RECONCILE_SWEEP_MS,
      settledRecheckMs: e.STRATA_RECONCILE_SETTLED_RECHECK_MS,
      leaseMs: e.STRATA_RECONCILE_LEASE_MS,
      nodesTtlMs: e.STRATA_RECONCILE_NODES_TTL_MS,
      retryBaseMs: e.STRATA_RECONCILE_RETRY_BASE_MS,
      retryMaxMs: e.STRATA_RECONCILE_RETRY_MAX_MS,
      headlessWaitMs: e.STRATA_UPDATE_HEADLESS_WAIT_MS,
      forgetWaitMs: e.STRATA_UPDATE_FORGET_WAIT_MS,
      migrateRetryBaseMs: e.STRATA_UPDATE_MIGRATE_RETRY_BASE_MS,
      migrateReportWaitMs: e.STRATA_UPDATE_MIGRATE_REPORT_WAIT_MS,
      reformAfterMs: e.STRATA_CREATE_REFORM_AFTER_MS,
    },
    alerts: {
      evaluation: { intervalMs: e.STRATA_ALERT_EVAL_MS, reloadMs: e.STRATA_ALERT_RELOAD_MS },
      dispatch: {
        pollMs: ND.pollMs, timeoutMs: e.STRATA_NOTIFY_TIMEOUT_MS, maxAttempts: e.STRATA_NOTIFY_MAX_ATTEMPTS, backoffBaseMs: e.STRATA_NOTIFY_RETRY_BASE_MS,
        backoffMaxMs: e.STRATA_NOTIFY_RETRY_MAX_MS, concurrency: e.STRATA_NOTIFY_CONCURRENCY, maxPendingPerChannel: e.STRATA_NOTIFY_MAX_PENDING,
      },
      smtp: e.STRATA_SMTP_URL ? { url: e.STRATA_SMTP_URL, from: e.STRATA_SMTP_FROM } : null,
    },
    testFaultFile: e.STRATA_TEST_FAULT_FILE ?? null,
    backups: { schedulerIntervalMs: e.STRATA_BACKUP_SCHEDULER_INTERVAL_MS, uploadMaxBytes: e.STRATA_BACKUP_UPLOAD_MAX_BYTES, uploadIdleTimeoutMs: e.STRATA_BACKUP_UPLOAD_IDLE_TIMEOUT_MS },
    requestTimeoutMs: e.STRATA_REQUEST_TIMEOUT_MS,
    tlsRenewBeforeMs: e.STRATA_TLS_RENEW_BEFORE_DAYS * 86_400_000,
    tls: e.STRATA_TLS_CERT && e.STRATA_TLS_KEY ? { certFile: path.resolve(e.STRATA_TLS_CERT), keyFile: path.resolve(e.STRATA_TLS_KEY) } : null,
    limits: {
      perToken: e.STRATA_RATE_LIMIT_PER_TOKEN, perIp: e.STRATA_RATE_LIMIT_PER_IP, windowMs: e.STRATA_RATE_LIMIT_WINDOW_MS,
      streamsPerUser: e.STRATA_MAX_STREAMS_PER_USER, streamMaxBufferBytes: e.STRATA_STREAM_MAX_BUFFER_BYTES,
      signInMaxFailures: e.STRATA_SIGN_IN_MAX_FAILURES, signInLockMs: e.STRATA_SIGN_IN_LOCK_MS,
    },
  };
}
