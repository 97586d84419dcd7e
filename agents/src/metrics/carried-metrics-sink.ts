import type { Logger } from 'pino';
import type { AgentMetricsBatch } from '@strata/api';
import type { MetricsSink } from './metrics-sampler';
import type { StatusReporter } from '../status-reporter';

/**
 * The metrics push, carrying the node's steady status report (one request
 * per node per second instead of two). A control plane that refuses the
 * batch with the report (400: one older than this agent, which does not know
 * the field) gets the samples alone at once, and the status on its own
 * route from then on: an agent upgraded before its control plane loses
 * neither. The sampler's readings also observe each engine's cluster view
 * for the reporter (one round trip per engine per second for both).
 */
export function carriedMetricsSink(d: {
  client: { pushMetrics(batch: AgentMetricsBatch): Promise<void> };
  reporter: Pick<StatusReporter, 'carry' | 'observed'>;
  log: Logger;
}): MetricsSink {
  let carrying = true;
  return {
    observed: (views) => d.reporter.observed(views),
    pushMetrics: (batch) => {
      if (!carrying) return d.client.pushMetrics(batch);
      return d.reporter.carry(async (status) => {
        if (!status) return d.client.pushMetrics(batch);
        try {
          await d.client.pushMetrics({ ...batch, status });
        } catch (err) {
          if ((err as { status?: number }).status !== 400) throw err;
          await d.client.pushMetrics(batch);
          carrying = false;
          d.log.warn({ err: (err as Error).message }, 'the control plane refuses a status report in the metrics push; reporting status separately');
          return 'not-carried';
        }
      });
    },
  };
}
