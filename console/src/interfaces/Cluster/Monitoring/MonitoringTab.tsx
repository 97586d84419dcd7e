import { useEffect, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import type { ClusterMetric, MetricsResult, MetricsStreamEvent } from '@strata/api';
import { useClusterMetricsQuery } from '../../../data/metrics/cluster-metrics-query';
import { useMetricsStream, type StreamState } from '../../../data/metrics/metrics-stream';
import { LiveWindow } from '../../../data/metrics/live-window';
import { ErrorState } from '../../../components/ui/States';
import { UPlotChart, type ChartSeries } from './UPlotChart';
import { ShardStrip } from './ShardStrip';
import { formatBytes, formatMicros, formatPercent, formatRate } from './format';
import './monitoring.css';

const RANGES = [
  { key: 'live', label: 'Live 5 min', from: '-5m' },
  { key: '1h', label: '1 h', from: '-1h' },
  { key: '24h', label: '24 h', from: '-24h' },
  { key: '7d', label: '7 d', from: '-7d' },
] as const;
type RangeKey = (typeof RANGES)[number]['key'];

const METRICS: ClusterMetric[] = [
  'ops', 'ops_read', 'ops_write', 'latency_p50', 'latency_p99', 'memory_used', 'clients',
  'keys', 'hits', 'misses', 'evictions', 'expirations', 'net_in', 'net_out', 'cpu', 'repl_lag',
];

type Column = (m: ClusterMetric) => (number | null)[];

interface ChartDef {
  key: string;
  title: string;
  /** Each series is a metric's column, or computed from several (a ratio). */
  series: (ChartSeries & { metric: ClusterMetric | ((col: Column) => (number | null)[]) })[];
  /** The legend's value, with its unit. */
  format: (v: number | null) => string;
  /** The y axis' ticks, short (the unit is in the title or the legend); defaults to `format`. */
  axis?: (v: number | null) => string;
  testId: string;
}

const count = (v: number | null) => (v === null ? '—' : Math.round(v).toLocaleString('en-US'));
/** hits / (hits + misses) per point; no lookups: no ratio. */
const hitRatio = (col: Column) => {
  const hits = col('hits');
  const misses = col('misses');
  return hits.map((h, i) => {
    const m = misses[i];
    return h === null || m === null || m === undefined || h + m === 0 ? null : h / (h + m);
  });
};

const CHARTS: ChartDef[] = [
  { key: 'ops', title: 'Operations per second', testId: 'chart-ops', format: (v) => formatRate(v), axis: (v) => formatRate(v, ''), series: [
    { metric: 'ops', label: 'total', color: '#1b2a4a', dashed: true },
    { metric: 'ops_read', label: 'reads', color: '#3b5bdb' }, { metric: 'ops_write', label: 'writes', color: '#d93a32' }] },
  { key: 'latency', title: 'Server latency', testId: 'chart-latency', format: formatMicros, series: [
    { metric: 'latency_p50', label: 'p50', color: '#1f8a4c' }, { metric: 'latency_p99', label: 'p99 (slowest instance)', color: '#d98b06' }] },
  { key: 'memory', title: 'Memory used', testId: 'chart-memory', format: formatBytes, series: [{ metric: 'memory_used', label: 'used', color: '#7048e8' }] },
  { key: 'keys', title: 'Keys', testId: 'chart-keys', format: count, series: [{ metric: 'keys', label: 'keys', color: '#364fc7' }] },
  { key: 'hits', title: 'Cache hit ratio', testId: 'chart-hit-ratio', format: formatPercent, series: [{ metric: hitRatio, label: 'hits / lookups', color: '#2b8a3e' }] },
  { key: 'evictions', title: 'Evictions and expirations (keys/s)', testId: 'chart-evictions', format: (v) => formatRate(v, 'keys/s'), axis: (v) => formatRate(v, ''), series: [
    { metric: 'evictions', label: 'evicted', color: '#c92a2a' }, { metric: 'expirations', label: 'expired', color: '#868e96' }] },
  { key: 'network', title: 'Network (per second)', testId: 'chart-network', format: (v) => (v === null ? '—' : `${formatBytes(v)}/s`), axis: formatBytes, series: [
    { metric: 'net_in', label: 'in', color: '#1971c2' }, { metric: 'net_out', label: 'out', color: '#e8590c' }] },
  { key: 'cpu', title: 'CPU (% of one core)', testId: 'chart-cpu', format: (v) => (v === null ? '—' : `${Math.round(v * 100)}% of a core`), axis: (v) => (v === null ? '—' : `${Math.round(v * 100)}%`), series: [{ metric: 'cpu', label: 'all instances', color: '#5f3dc4' }] },
  { key: 'lag', title: 'Replication lag', testId: 'chart-repl-lag', format: formatBytes, series: [{ metric: 'repl_lag', label: 'furthest replica behind', color: '#e67700' }] },
  { key: 'clients', title: 'Connected clients', testId: 'chart-clients', format: count, series: [{ metric: 'clients', label: 'clients', color: '#0c8599' }] },
];

/** Charts of a cluster's live and historical metrics, with a per-shard strip. */
export function MonitoringTab({ clusterId }: { clusterId: string }) {
  const [range, setRange] = useState<RangeKey>('live');
  const live = range === 'live';
  return (
    <div className="stack-lg monitoring">
      <div className="monitoring-bar">
        <div role="radiogroup" aria-label="Time range" className="range-picker">
          {RANGES.map((r) => (
            <button key={r.key} type="button" role="radio" aria-checked={range === r.key} className="range-option" onClick={() => setRange(r.key)}>
              {r.label}
            </button>
          ))}
        </div>
      </div>
      {live ? <LiveCharts clusterId={clusterId} /> : <HistoryCharts clusterId={clusterId} from={RANGES.find((r) => r.key === range)!.from} />}
    </div>
  );
}

function LiveCharts({ clusterId }: { clusterId: string }) {
  const seed = useClusterMetricsQuery(clusterId, { metrics: METRICS, from: '-5m', step: 1, by: 'shard' });
  const win = useRef(new LiveWindow(300));
  const seeded = useRef(false);
  const pending = useRef<MetricsStreamEvent[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!seed.data || seeded.current) return;
    win.current.seed(seed.data);
    for (const e of pending.current) win.current.push(e);
    pending.current = [];
    seeded.current = true;
    setVersion((v) => v + 1);
  }, [seed.data]);

  const stream = useMetricsStream(clusterId, METRICS, (e) => {
    if (!seeded.current) {
      pending.current.push(e);
      return;
    }
    win.current.push(e);
    setVersion((v) => v + 1);
  }, true);

  const w = win.current;
  const data = useMemo(() => chartData(w.timestamps, (m) => w.columns.get(m) ?? []), [version]); // eslint-disable-line react-hooks/exhaustive-deps
  const shards = w.shards().map((shard) => ({ shard, ops: w.latest(`ops@${shard}`) }));

  if (seed.isError) return <ErrorState error={seed.error} title="Could not load metrics" onRetry={() => void seed.refetch()} />;
  return (
    <>
      <Readouts now={(m) => w.latest(m)} stream={stream} />
      <Charts data={data} />
      <ShardStrip shards={shards} />
    </>
  );
}

function HistoryCharts({ clusterId, from }: { clusterId: string; from: string }) {
  const q = useClusterMetricsQuery(clusterId, { metrics: METRICS, from, by: 'cluster' }, { refetchInterval: 30_000 });
  const shardsQ = useClusterMetricsQuery(clusterId, { metrics: ['ops'], from, by: 'shard' }, { refetchInterval: 30_000 });
  const data = useMemo(() => (q.data ? chartData(q.data.timestamps, (m) => q.data.series.find((s) => s.metric === m)?.values ?? []) : null), [q.data]);
  if (q.isError) return <ErrorState error={q.error} title="Could not load metrics" onRetry={() => void q.refetch()} />;
  const mean = (vs: (number | null)[]) => {
    const p = vs.filter((v): v is number => v !== null);
    return p.length ? p.reduce((a, b) => a + b, 0) / p.length : null;
  };
  const shards = (shardsQ.data?.series ?? []).map((s) => ({ shard: s.shard ?? 0, ops: mean(s.values) }));
  return (
    <>
      {q.data && <p className="muted small">{sourceNote(q.data)}</p>}
      {data ? <Charts data={data} /> : <p className="muted">Loading…</p>}
      <ShardStrip shards={shards} />
    </>
  );
}

function sourceNote(r: MetricsResult): string {
  const step = r.step >= 60 ? `${r.step / 60} min` : `${r.step} s`;
  return `One point per ${step}, ${r.source === 'rollup' ? 'from 1-minute rollups' : r.source === 'raw' ? 'from 1-second history' : 'from the live window'}.`;
}

function chartData(timestamps: number[], column: Column): Record<string, uPlot.AlignedData> {
  const out: Record<string, uPlot.AlignedData> = {};
  for (const c of CHARTS) out[c.key] = [timestamps, ...c.series.map((s) => (typeof s.metric === 'function' ? s.metric(column) : column(s.metric)))] as uPlot.AlignedData;
  return out;
}

function Charts({ data }: { data: Record<string, uPlot.AlignedData> }) {
  return (
    <div className="chart-grid">
      {CHARTS.map((c) => (
        <section key={c.key} className="card chart-card" data-testid={c.testId} data-points={data[c.key]![0].length} data-last-ts={data[c.key]![0].at(-1) ?? ""} data-latest={latestSum(c.series.some((x) => x.dashed) ? [data[c.key]![0], data[c.key]![1 + c.series.findIndex((x) => x.dashed)]!] as uPlot.AlignedData : data[c.key]!)} aria-labelledby={`${c.key}-title`}>
          <div className="card-head">
            <h3 id={`${c.key}-title`} className="card-title">{c.title}</h3>
          </div>
          <UPlotChart label={c.title} data={data[c.key]!} series={c.series} format={c.format} axisFormat={c.axis} />
        </section>
      ))}
    </div>
  );
}

/** Sum of the series' newest values (what the chart's right edge shows; the total line alone when there is one), for tests and screen readers. */
function latestSum(d: uPlot.AlignedData): string {
  let total: number | null = null;
  for (const col of d.slice(1)) {
    for (let i = col.length - 1; i >= Math.max(0, col.length - 3); i--) {
      const v = col[i];
      if (v !== null && v !== undefined) {
        total = (total ?? 0) + v;
        break;
      }
    }
  }
  return total === null ? '' : String(total);
}

const STREAM_LABEL: Record<StreamState, string> = { connecting: 'connecting…', open: 'live', reconnecting: 'reconnecting…', off: 'paused' };

function Readouts({ now, stream }: { now: (m: ClusterMetric) => number | null; stream: StreamState }) {
  return (
    <dl className="stats monitoring-readouts" aria-live="off">
      <div>
        <dt>Ops/s now</dt>
        <dd className="tabular" data-testid="ops-now">{formatRate(now('ops'), '')}</dd>
      </div>
      <div>
        <dt>Reads / writes</dt>
        <dd className="tabular">{formatRate(now('ops_read'), '')} / {formatRate(now('ops_write'), '')}</dd>
      </div>
      <div>
        <dt>p99 latency</dt>
        <dd className="tabular">{formatMicros(now('latency_p99'))}</dd>
      </div>
      <div>
        <dt>Memory</dt>
        <dd className="tabular">{formatBytes(now('memory_used'))}</dd>
      </div>
      <div>
        <dt>Keys</dt>
        <dd className="tabular" data-testid="keys-now">{count(now('keys'))}</dd>
      </div>
      <div>
        <dt>Stream</dt>
        <dd data-testid="stream-state" data-state={stream}><span className={`live-dot live-${stream}`} aria-hidden="true" /> {STREAM_LABEL[stream]}</dd>
      </div>
    </dl>
  );
}
