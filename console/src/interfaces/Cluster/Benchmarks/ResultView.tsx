import { shardName } from '@strata/api';
import { useMemo } from 'react';
import type { Durability, Benchmark } from '@strata/api';
import { InlineAlert } from '../../../components/ui/States';
import { Badge } from '../../../components/ui/Badge';
import { BenchChart } from './BenchChart';
import { plural } from '../../../lib/format';
import { DURABILITY_LABELS } from '../labels';
import { PERCENTILES, faultMarks, formatOps, formatUs, headline, percentileLabel, seriesData } from './bench-format';

const COLORS = ['#3b5bdb', '#d93a32', '#1f8a4c', '#d98b06', '#7048e8', '#0c8599'];

/** A finished run: throughput, per-op percentiles, percentile plot, time series, per-shard ops, verdict, export. */
export function ResultView({ b }: { b: Benchmark }) {
  const r = b.result!;
  const series = useMemo(() => seriesData(r.series), [r.series]);
  const marks = useMemo(() => faultMarks(r), [r]);
  const hasWrites = series[4].some((w) => w !== null);
  const pctData = useMemo(() => [PERCENTILES.map((p) => p.x), ...r.ops.map((o) => PERCENTILES.map((p) => o.service[p.key]))] as [number[], ...number[][]], [r.ops]);
  return (
    <div className="bench-result" data-testid="bench-result">
      <section className="stats-cards bench-stats">
        <div className="card"><div className="muted">Throughput</div><div className="bench-big" data-testid="bench-throughput">{headline(r)}</div><div className="muted">{r.analytic ? `mean of ${r.analytic.runsMs.length} runs` : `${r.totalOps.toLocaleString('en')} ops in ${r.steadySec} s steady state`}</div></div>
        <div className="card"><div className="muted">Verdict</div><div className="bench-big"><Badge tone={r.validity.valid ? 'success' : 'warning'} testId="bench-verdict">{r.validity.valid ? 'valid' : 'invalid'}</Badge></div><div className="muted">{r.environment.mode === 'capacity' ? 'capacity run (closed loop)' : 'open loop at a target rate'}</div></div>
        <div className="card"><div className="muted">Client</div><div className="bench-big">{r.workers.reduce((a, w) => a + w.threads, 0)} threads</div><div className="muted">busiest at {Math.round(Math.max(0, ...r.workers.map((w) => w.cpu)) * 100)}% of a core</div></div>
      </section>
      {!r.validity.valid && (
        <InlineAlert tone="warning" title="Why this run is marked invalid">
          <ul data-testid="bench-reasons">{r.validity.reasons.map((x, i) => <li key={i}><strong>{x.gate}</strong>: {x.message}</li>)}</ul>
        </InlineAlert>
      )}
      {r.validity.coordinatedOmission && <p className="muted">Latency of a capacity run is not corrected for coordinated omission; run at a target rate for response times.</p>}
      {r.analytic && (
        <section className="card">
          <h3 className="card-title">Analytic query</h3>
          <dl className="kv-grid">
            <dt>Records visited</dt><dd>{r.analytic.records.toLocaleString('en')}</dd>
            <dt>Sentences</dt><dd>{r.analytic.sentences.toLocaleString('en')}</dd>
            <dt>Wall time (mean)</dt><dd>{r.analytic.meanMs} ms ({r.analytic.runsMs.join(', ')} ms)</dd>
            <dt>Longest block of a node</dt><dd>{r.analytic.longestBlockMs} ms (upper bound: one batch)</dd>
          </dl>
        </section>
      )}
      {r.fault && (
        <section className="card" data-testid="bench-fault">
          <h3 className="card-title">Failover under load</h3>
          <dl className="kv-grid">
            <dt>Fault</dt>
            <dd>{r.fault.injectedAtT !== undefined ? `primary of ${shardName(r.fault.shard)} (${r.fault.endpoint}) killed at ${r.fault.injectedAtT} s` : `not injected${r.fault.injectError ? `: ${r.fault.injectError}` : ''}`}</dd>
            <dt>Failover</dt>
            <dd>{r.fault.failoverAtT !== undefined ? `replica took over at ${r.fault.failoverAtT} s (${r.fault.failoverCause})${r.fault.writeUnavailableMs != null ? `; Strata measured ${formatUs(r.fault.writeUnavailableMs * 1000)} without writes` : ''}` : 'no failover recorded'}</dd>
            <dt>Clients saw no write to the shard for</dt>
            <dd data-testid="bench-write-gap">{formatUs(r.fault.writeGapMs * 1000)}{r.fault.writeGapStartT !== undefined ? ` (${r.fault.writeGapStartT} s to ${r.fault.writeGapEndT} s)` : ''}</dd>
            <dt>Failed operations</dt><dd>{r.fault.errors.toLocaleString('en')}</dd>
          </dl>
        </section>
      )}
      {r.ops.length > 0 && (
        <section className="card">
          <h3 className="card-title">Latency per operation (service time)</h3>
          <table className="table table-cards" data-testid="bench-latency-table">
            <thead><tr><th scope="col">Op</th><th scope="col">Count</th><th scope="col">ops/s</th><th scope="col">p50</th><th scope="col">p95</th><th scope="col">p99</th><th scope="col">p99.9</th><th scope="col">Errors</th></tr></thead>
            <tbody>
              {r.ops.map((o) => (
                <tr key={o.op}><td data-label="Op">{o.op}</td><td data-label="Count">{o.count.toLocaleString('en')}</td><td data-label="ops/s">{formatOps(o.opsPerSec)}</td><td data-label="p50">{formatUs(o.service.p50)}</td><td data-label="p95">{formatUs(o.service.p95)}</td><td data-label="p99">{formatUs(o.service.p99)}</td><td data-label="p99.9">{formatUs(o.service.p999)}</td><td data-label="Errors">{o.errors + o.misses}</td></tr>
              ))}
            </tbody>
          </table>
          {r.ops.some((o) => o.response) && <p className="muted">Response time (from the intended start) p99: {r.ops.map((o) => `${o.op} ${formatUs(o.response?.p99 ?? 0)}`).join(', ')}</p>}
          <BenchChart testId="bench-percentile-chart" label="Latency by percentile" data={pctData} series={r.ops.map((o, i) => ({ label: o.op, color: COLORS[i % COLORS.length]! }))} xValues={percentileLabel} xSplits={PERCENTILES.map((p) => p.x)} yFormat={formatUs} />
        </section>
      )}
      {r.series.length > 0 && (
        <section className="card">
          <h3 className="card-title">Time series (second 0 = start of the steady phase)</h3>
          <BenchChart
            testId="bench-series-chart" label="Throughput per second" marks={marks}
            data={hasWrites ? [series[0], series[1], series[1].map((ops, i) => (series[4][i] === null ? null : ops - series[4][i]!)), series[4]] : [series[0], series[1]]}
            series={hasWrites
              ? [{ label: 'total ops/s', color: '#1b2a4a', dashed: true }, { label: 'reads/s', color: '#3b5bdb' }, { label: 'writes/s', color: '#d93a32' }]
              : [{ label: 'ops/s', color: '#3b5bdb' }]}
            seconds yFormat={formatOps}
          />
          <BenchChart testId="bench-latency-series-chart" label="Latency per second" marks={marks} data={[series[0], series[2], series[3]]} series={[{ label: 'p50', color: '#1f8a4c' }, { label: 'p99', color: '#d98b06' }]} seconds yFormat={formatUs} height={160} />
        </section>
      )}
      {r.shards.length > 0 && (
        <section className="card">
          <h3 className="card-title">Per shard (steady window)</h3>
          <table className="table table-cards" data-testid="bench-shards">
            <thead><tr><th scope="col">Primary</th><th scope="col">Client commands</th><th scope="col">Server commands</th><th scope="col">Server p50</th><th scope="col">Server p99</th><th scope="col">Server max</th></tr></thead>
            <tbody>{r.shards.map((s) => (
              <tr key={s.endpoint}>
                <td data-label="Primary">{s.endpoint}</td><td data-label="Client commands">{s.clientOps.toLocaleString('en')}</td><td data-label="Server commands">{s.serverOps?.toLocaleString('en') ?? '—'}</td>
                <td data-label="Server p50">{s.serverLatency ? `≤ ${formatUs(s.serverLatency.p50)}` : '—'}</td><td data-label="Server p99">{s.serverLatency ? `≤ ${formatUs(s.serverLatency.p99)}` : '—'}</td><td data-label="Server max">{s.serverLatency ? `≤ ${formatUs(s.serverLatency.max)}` : '—'}</td>
              </tr>
            ))}</tbody>
          </table>
          <p className="muted">Server latency is each node's own LATENCY HISTOGRAM for the same window: command execution only (no network or queueing), power-of-two buckets, so each figure is an upper bound.</p>
          <p className="muted">A scrambled zipfian puts more load on the shard holding the hottest keys; that is skew, not a scaling problem.</p>
        </section>
      )}
      <section className="card">
        <h3 className="card-title">Reproduce and export</h3>
        <p className="muted">Engine {r.environment.engineVersion}, {plural(r.environment.shards, 'shard')} with {plural(r.environment.replicasPerShard, 'replica')} each, durability {DURABILITY_LABELS[r.environment.durability as Durability] ?? r.environment.durability}, seed {r.environment.seed}, {b.request.connections} connections, pipeline {b.request.pipeline}.</p>
        <a className="btn btn-secondary" href={`/v1/benchmarks/${b.id}/export`} download>Export JSON (with HDR logs)</a>{' '}
        <a className="btn btn-secondary" href={`/v1/benchmarks/${b.id}/export?format=csv`} download>Export CSV</a>
      </section>
    </div>
  );
}
