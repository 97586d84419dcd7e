import { useMemo, useState } from 'react';
import type { Benchmark } from '@strata/api';
import { Link } from '../../../lib/router';
import { BenchChart } from './BenchChart';
import { WORKLOAD_LABELS, formatOps, formatUs, scalingPoints, scalingWorkloads } from './bench-format';

/** Throughput and p95 against shards from the cluster's runs of one workload at different sizes, with each shard's ops. */
export function ScalingView({ items, base }: { items: readonly Benchmark[]; base: string }) {
  const workloads = useMemo(() => scalingWorkloads(items), [items]);
  const [picked, setPicked] = useState<string | undefined>();
  const workload = picked && workloads.includes(picked) ? picked : workloads[0];
  const points = useMemo(() => (workload ? scalingPoints(items, workload) : []), [items, workload]);
  if (!workload || points.length < 2) return null;
  const xs = points.map((p) => p.shards);
  return (
    <section className="card" aria-labelledby="scaling-title" data-testid="bench-scaling">
      <div className="bench-history-head">
        <h2 id="scaling-title" className="section-title">Scaling: throughput and p95 against shards</h2>
        <label>
          Workload{' '}
          <select value={workload} onChange={(e) => setPicked(e.target.value)}>
            {workloads.map((w) => <option key={w} value={w}>{WORKLOAD_LABELS[w] ?? w}</option>)}
          </select>
        </label>
      </div>
      <p className="muted">The latest run at each shard count (resize online between runs, or <code>npm run bench:scaling</code>).</p>
      <BenchChart testId="bench-scaling-throughput" label="Throughput against shards" data={[xs, points.map((p) => p.opsPerSec)]} series={[{ label: 'ops/s', color: '#3b5bdb' }]} xValues={(v) => `${v}`} xSplits={xs} yFormat={formatOps} height={180} />
      <BenchChart testId="bench-scaling-p95" label="p95 latency against shards" data={[xs, points.map((p) => p.p95)]} series={[{ label: 'p95', color: '#d98b06' }]} xValues={(v) => `${v}`} xSplits={xs} yFormat={formatUs} height={160} />
      <table className="table table-cards">
        <thead><tr><th scope="col">Shards</th><th scope="col">ops/s</th><th scope="col">p95</th><th scope="col">Each shard (ops/s)</th><th scope="col">Hottest vs mean</th><th scope="col">Run</th></tr></thead>
        <tbody>
          {points.map((p) => {
            const mean = p.shardOps.reduce((a, x) => a + x, 0) / (p.shardOps.length || 1);
            return (
              <tr key={p.shards}>
                <td data-label="Shards">{p.shards}</td><td data-label="ops/s">{formatOps(p.opsPerSec)}</td><td data-label="p95">{formatUs(p.p95)}</td>
                <td data-label="Each shard (ops/s)">{p.shardOps.map((x) => formatOps(x)).join(' / ')}</td>
                <td data-label="Hottest vs mean">{mean > 0 ? `${(Math.max(...p.shardOps) / mean).toFixed(2)}x` : '—'}</td>
                <td data-label="Run"><Link to={`${base}?run=${p.benchmarkId}`}>{p.valid ? 'valid' : 'invalid'}</Link></td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted">A scrambled zipfian loads the shard holding the hottest keys more: the per-shard column tells skew from a scaling limit.</p>
    </section>
  );
}
