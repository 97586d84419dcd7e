/**
 * Alert rules as a Prometheus rule file (pure code), over the metric names
 * Strata's /metrics exposes (prometheus.exposition.ts). `failover` and
 * `backup_failed` have no series there: they are listed as comments and
 * evaluated by Strata only.
 */
import { ALERT_METRICS, type AlertMetric } from '@strata/api';

export interface ExportRule {
  id: string;
  name: string;
  metric: AlertMetric;
  threshold: number;
  forSeconds: number;
  /** The cluster it is evaluated for. */
  cluster: { id: string; name: string };
}

const q = (s: string) => JSON.stringify(s); // a JSON string is a YAML double-quoted scalar
const BY = 'cluster_id, cluster';

/** The PromQL whose result is the rule's value per cluster (null: no series for it). */
export function promValue(metric: AlertMetric, clusterId: string): string | null {
  const sel = (name: string, extra = '') => `${name}{cluster_id=${q(clusterId)}${extra}}`;
  switch (metric) {
    case 'memory_used_percent':
      return `max by (${BY}) (100 * ${sel('strata_redis_memory_used_bytes')} / (${sel('strata_redis_memory_max_bytes')} > 0))`;
    case 'ops_per_sec':
      // Reads everywhere plus writes on primaries (a replica's writes are replication), as Strata counts them.
      return `sum by (${BY}) (rate(${sel('strata_redis_commands_total', ',class="read"')}[1m]) or rate(${sel('strata_redis_commands_total', ',class="write",role="primary"')}[1m]))`;
    case 'latency_p99_ms':
      return `1000 * max by (${BY}) (histogram_quantile(0.99, sum by (${BY}, instance, le) (rate(${sel('strata_redis_command_latency_seconds_bucket')}[1m]))))`;
    case 'replication_lag_bytes':
      return `max by (${BY}) (${sel('strata_redis_replication_lag_bytes')})`;
    case 'connected_clients':
      return `sum by (${BY}) (${sel('strata_redis_connected_clients')})`;
    case 'evictions':
      return `sum by (${BY}) (rate(${sel('strata_redis_evicted_keys_total')}[1m]))`;
    case 'cluster_degraded':
      // An instance of the cluster that stopped reporting (Strata's own phase also counts replication and slots).
      return `(1 - min by (${BY}) (${sel('strata_redis_up')}))`;
    case 'node_down':
      // Nodes hosting the cluster that stopped reporting.
      return `count by (${BY}) ((strata_node_up == 0) * on (node) group_right () (0 * max by (${BY}, node) (${sel('strata_redis_up')})))`;
    case 'failover':
    case 'backup_failed':
      return null;
  }
}

/** The rule file: one group per cluster, one alerting rule per Strata rule. */
export function ruleSummary(r: ExportRule, cluster = '{{ $labels.cluster }}'): string {
  const m = ALERT_METRICS[r.metric];
  return `${r.name}: ${m.label} above ${r.threshold}${m.unit ? ` ${m.unit}` : ''} for ${r.forSeconds}s on ${cluster}`;
}

export function prometheusRuleFile(rules: readonly ExportRule[]): string {
  const groups = new Map<string, ExportRule[]>();
  for (const r of rules) groups.set(r.cluster.id, [...(groups.get(r.cluster.id) ?? []), r]);
  const out = ['# Strata alert rules as Prometheus alerting rules, over the series of Strata\'s /metrics.', 'groups:'];
  if (!groups.size) out[1] = 'groups: []';
  for (const [clusterId, rs] of groups) {
    out.push(`  - name: ${q(`strata-${rs[0]!.cluster.name}-${clusterId}`)}`, '    rules:');
    const exported = rs.filter((r) => promValue(r.metric, clusterId) !== null);
    if (!exported.length) out[out.length - 1] = '    rules: []';
    for (const r of rs) {
      const value = promValue(r.metric, clusterId);
      if (value === null) {
        out.push(`      # ${r.name} (${r.metric}): evaluated by Strata only, no /metrics series`);
        continue;
      }
      out.push(
        `      - alert: ${q(alertName(r))}`,
        `        expr: ${q(`${value} > ${r.threshold}`)}`,
        `        for: ${r.forSeconds}s`,
        '        labels:',
        `          strata_rule_id: ${q(r.id)}`,
        `          metric: ${q(r.metric)}`,
        '        annotations:',
        `          summary: ${q(ruleSummary(r))}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** A Prometheus alert name: letters, digits and underscores. */
export function alertName(r: { name: string; metric: string; id: string }): string {
  const base = `Strata_${r.name}`.replace(/[^A-Za-z0-9_]/g, '_').replace(/_+/g, '_');
  return `${base}_${r.id.slice(0, 8)}`;
}
