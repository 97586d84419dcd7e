/** Wires alert rules, their evaluation, notification channels and the dispatcher (called from main.ts). */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box';
import type { ClusterStore } from '../stores/cluster.store';
import { AlertStore } from './alert.store';
import { AlertEvaluator, type ClusterSecond, type EvaluatorTimings } from './alert-evaluator';
import { NotificationDispatcher, type DispatchTimings } from './notification-dispatcher';
import type { SmtpSettings } from './notification-senders';
import { alertRoutes } from './alert.routes';

/** Finished deliveries are kept this long in the delivery log. */
const DELIVERY_LOG_DAYS = 7;

export function createAlertModule(d: {
  pool: pg.Pool;
  log: Logger;
  box: SecretBox;
  clusters: ClusterStore;
  latest: (clusterId: string) => ClusterSecond | null;
  evaluation: EvaluatorTimings;
  dispatch: DispatchTimings;
  smtp: SmtpSettings | null;
}) {
  const log = d.log.child({ module: 'alerts' });
  const store = new AlertStore(d.pool);
  const dispatcher = new NotificationDispatcher({ store, box: d.box, log, timings: d.dispatch, smtp: d.smtp });
  const evaluator = new AlertEvaluator({
    pool: d.pool, store, log, timings: d.evaluation, latest: d.latest, queued: () => dispatcher.wake(), maxPendingPerChannel: d.dispatch.maxPendingPerChannel,
  });
  let pruner: NodeJS.Timeout | undefined;
  return {
    store,
    evaluator,
    dispatcher,
    router: alertRoutes({
      store, clusters: d.clusters, box: d.box, smtpConfigured: !!d.smtp, maxPendingPerChannel: d.dispatch.maxPendingPerChannel,
      rulesChanged: () => evaluator.invalidate(), queued: () => dispatcher.wake(),
    }),
    start() {
      evaluator.start();
      dispatcher.start();
      pruner = setInterval(() => void store.prune(DELIVERY_LOG_DAYS).catch((err) => log.warn({ err }, 'pruning the delivery log failed')), 3_600_000);
      pruner.unref();
    },
    stop() {
      clearInterval(pruner);
      evaluator.stop();
      dispatcher.stop();
    },
  };
}
