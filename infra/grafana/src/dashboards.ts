/**
 * Strata's Grafana dashboards as code (grafana-foundation-sdk). Every panel
 * reads the Prometheus series of GET /metrics; `npm run generate -w
 * @strata/grafana` writes the JSON that Grafana provisions.
 */
import { DashboardBuilder, QueryVariableBuilder, RowBuilder, VariableRefresh, VariableSort } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import * as bargauge from '@grafana/grafana-foundation-sdk/bargauge';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as common from '@grafana/grafana-foundation-sdk/common';

export const DATASOURCE = { type: 'prometheus', uid: 'strata-prometheus' };

const q = (expr: string, legend: string) => new DataqueryBuilder().expr(expr).legendFormat(legend).datasource(DATASOURCE);
const C = 'cluster="$cluster"';
const RI = '$__rate_interval';

/** Served ops: reads anywhere, writes on primaries (a replica's writes are replication). */
const served = (by: string) =>
  `sum by (${by}) (rate(strata_redis_commands_total{${C},class="read"}[${RI}])) + sum by (${by}) (rate(strata_redis_commands_total{${C},class="write",role="primary"}[${RI}]))`;

const ts = (title: string, unit: string, ...targets: DataqueryBuilder[]) => {
  const p = new timeseries.PanelBuilder().title(title).unit(unit).datasource(DATASOURCE).height(8).span(12).min(0)
    .legend(new common.VizLegendOptionsBuilder().showLegend(true).displayMode(common.LegendDisplayMode.List).placement(common.LegendPlacement.Bottom));
  for (const t of targets) p.withTarget(t);
  return p;
};

export function clusterOverview() {
  return new DashboardBuilder('Strata / Cluster overview')
    .uid('strata-cluster-overview')
    .tags(['strata', 'redis'])
    .refresh('5s')
    .time({ from: 'now-15m', to: 'now' })
    .timezone('browser')
    .withVariable(
      new QueryVariableBuilder('cluster').label('Cluster').datasource(DATASOURCE)
        .query('label_values(strata_redis_up, cluster)').refresh(VariableRefresh.OnTimeRangeChanged).sort(VariableSort.AlphabeticalAsc),
    )
    .withRow(new RowBuilder('Traffic'))
    .withPanel(ts('Ops/s by class', 'ops',
      q(`sum(rate(strata_redis_commands_total{${C},class="read"}[${RI}]))`, 'reads'),
      q(`sum(rate(strata_redis_commands_total{${C},class="write",role="primary"}[${RI}]))`, 'writes'),
      q(`sum(rate(strata_redis_commands_total{${C},class="other"}[${RI}]))`, 'other')))
    .withPanel(ts('Server latency percentiles', 's',
      ...([['0.5', 'p50'], ['0.95', 'p95'], ['0.99', 'p99'], ['0.999', 'p99.9']] as const).map(([quantile, legend]) =>
        q(`histogram_quantile(${quantile}, sum by (le) (rate(strata_redis_command_latency_seconds_bucket{${C}}[${RI}])))`, legend))))
    .withPanel(ts('Ops/s by shard', 'ops', q(served('shard'), 'shard {{shard}}')).stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal)))
    .withPanel(new bargauge.PanelBuilder().title('Hottest shard (ops/s now)').unit('ops').datasource(DATASOURCE).height(8).span(12)
      .withTarget(q(served('shard'), 'shard {{shard}}').instant()))
    .withRow(new RowBuilder('Resources'))
    .withPanel(ts('Memory', 'bytes',
      q(`sum by (shard) (strata_redis_memory_used_bytes{${C},role="primary"})`, 'used, shard {{shard}}'),
      q(`sum(strata_redis_memory_max_bytes{${C},role="primary"})`, 'maxmemory (all primaries)')))
    .withPanel(ts('Connected clients', 'short', q(`sum by (instance, role) (strata_redis_connected_clients{${C}})`, '{{role}} {{instance}}')))
    .withPanel(ts('Replication lag', 'bytes', q(`max by (shard) (strata_redis_replication_lag_bytes{${C}})`, 'shard {{shard}}')))
    .withPanel(ts('Keys', 'short', q(`sum by (shard) (strata_redis_db_keys{${C},role="primary"})`, 'shard {{shard}}')))
    .withPanel(ts('Hit ratio', 'percentunit',
      q(`sum(rate(strata_redis_keyspace_hits_total{${C}}[${RI}])) / clamp_min(sum(rate(strata_redis_keyspace_hits_total{${C}}[${RI}])) + sum(rate(strata_redis_keyspace_misses_total{${C}}[${RI}])), 1e-9)`, 'hits')))
    .withPanel(ts('Evictions and expirations', 'short',
      q(`sum(rate(strata_redis_evicted_keys_total{${C}}[${RI}]))`, 'evicted/s'),
      q(`sum(rate(strata_redis_expired_keys_total{${C}}[${RI}]))`, 'expired/s')))
    .withPanel(ts('Network', 'Bps',
      q(`sum(rate(strata_redis_net_input_bytes_total{${C}}[${RI}]))`, 'in'),
      q(`sum(rate(strata_redis_net_output_bytes_total{${C}}[${RI}]))`, 'out')))
    .withPanel(ts('Engine CPU', 'percentunit', q(`rate(strata_redis_cpu_seconds_total{${C}}[${RI}])`, '{{role}} {{instance}}')))
    .withPanel(new stat.PanelBuilder().title('Instances up').datasource(DATASOURCE).height(4).span(6)
      .withTarget(q(`sum(strata_redis_up{${C}})`, 'up')))
    .withPanel(new stat.PanelBuilder().title('Engine restarts (1 h)').datasource(DATASOURCE).height(4).span(6)
      .withTarget(q(`sum(increase(strata_redis_restarts_total{${C}}[1h]))`, 'restarts')));
}

export function fleet() {
  return new DashboardBuilder('Strata / Fleet')
    .uid('strata-fleet')
    .tags(['strata'])
    .refresh('10s')
    .time({ from: 'now-1h', to: 'now' })
    .timezone('browser')
    .withRow(new RowBuilder('Nodes'))
    .withPanel(ts('Node CPU', 'percentunit', q('strata_node_cpu_utilization_ratio', '{{node}}')).max(1))
    .withPanel(ts('Node memory used', 'percentunit', q('1 - strata_node_memory_available_bytes / strata_node_memory_total_bytes', '{{node}}')).max(1))
    .withPanel(ts('Node disk used', 'percentunit', q('1 - strata_node_disk_free_bytes / strata_node_disk_total_bytes', '{{node}}')).max(1))
    .withPanel(ts('Ops/s by cluster', 'ops',
      q(`sum by (cluster) (rate(strata_redis_commands_total{class="read"}[${RI}])) + sum by (cluster) (rate(strata_redis_commands_total{class="write",role="primary"}[${RI}]))`, '{{cluster}}')))
    .withRow(new RowBuilder('Control plane'))
    .withPanel(ts('API p99 latency by route', 's',
      q(`histogram_quantile(0.99, sum by (le, route) (rate(strata_http_request_duration_seconds_bucket[${RI}])))`, '{{route}}')))
    .withPanel(ts('Reconcile passes', 'short', q(`sum by (outcome) (rate(strata_reconcile_passes_total[${RI}]))`, '{{outcome}}')))
    .withPanel(ts('Agent task queue', 'short', q('strata_task_queue_depth', '{{state}}')))
    .withPanel(ts('Metrics pipeline', 'short',
      q(`rate(strata_metrics_samples_ingested_total[${RI}])`, 'samples/s'),
      q(`sum(rate(strata_metrics_rows_written_total[${RI}]))`, 'rows written/s'),
      q('strata_metrics_write_queue_rows', 'queued rows')))
    .withPanel(ts('Control plane CPU', 'percentunit', q(`rate(strata_control_plane_process_cpu_seconds_total[${RI}])`, 'cpu')));
}

export const DASHBOARDS = { 'strata-cluster-overview': clusterOverview, 'strata-fleet': fleet } as const;

/** Every PromQL expression of a dashboard JSON (panels, then variables). */
export function promqlOf(dashboard: unknown): string[] {
  const d = dashboard as { panels?: { targets?: { expr?: string }[]; panels?: unknown[] }[]; templating?: { list?: { query?: unknown }[] } };
  const out: string[] = [];
  const walk = (panels: typeof d.panels) => {
    for (const p of panels ?? []) {
      for (const t of p.targets ?? []) if (t.expr) out.push(t.expr);
      walk(p.panels as typeof d.panels);
    }
  };
  walk(d.panels);
  return out;
}
