import type { Benchmark } from '@strata/api';
import { useBenchmarkQuery } from '../../../data/benchmarks/benchmark-query';
import { Link } from '../../../lib/router';
import { ErrorState, LoadingState } from '../../../components/ui/States';
import { WORKLOAD_LABELS, formatUs, headline } from './bench-format';

/** Two finished runs side by side. */
export function CompareView({ ids, back }: { ids: [string, string]; back: string }) {
  const a = useBenchmarkQuery(ids[0]);
  const b = useBenchmarkQuery(ids[1]);
  if (a.isPending || b.isPending) return <LoadingState label="Loading runs…" />;
  if (a.isError || b.isError) return <ErrorState error={a.error ?? b.error} title="Could not load the runs" />;
  const runs: Benchmark[] = [a.data, b.data];
  const ops = [...new Set(runs.flatMap((r) => r.result?.ops.map((o) => o.op) ?? []))];
  return (
    <div className="bench">
      <p><Link to={back}>← All benchmarks</Link></p>
      <h2 className="section-title">Comparison</h2>
      <table className="table" data-testid="bench-compare">
        <thead><tr><th scope="col" /><th scope="col">{WORKLOAD_LABELS[runs[0]!.workload]} · {runs[0]!.id.slice(0, 8)}</th><th scope="col">{WORKLOAD_LABELS[runs[1]!.workload]} · {runs[1]!.id.slice(0, 8)}</th></tr></thead>
        <tbody>
          <tr><th scope="row">Throughput</th>{runs.map((r) => <td key={r.id}>{r.result ? headline(r.result) : r.state}</td>)}</tr>
          <tr><th scope="row">Verdict</th>{runs.map((r) => <td key={r.id}>{r.result ? (r.result.validity.valid ? 'valid' : `invalid (${r.result.validity.reasons.map((x) => x.gate).join(', ')})`) : '—'}</td>)}</tr>
          <tr><th scope="row">Connections / pipeline</th>{runs.map((r) => <td key={r.id}>{r.request.connections} / {r.request.pipeline}</td>)}</tr>
          <tr><th scope="row">Records</th>{runs.map((r) => <td key={r.id}>{r.request.recordCount.toLocaleString('en')}</td>)}</tr>
          {ops.flatMap((op) =>
            (['p50', 'p95', 'p99', 'p999'] as const).map((p) => (
              <tr key={op + p}><th scope="row">{op} {p === 'p999' ? 'p99.9' : p}</th>{runs.map((r) => { const o = r.result?.ops.find((x) => x.op === op); return <td key={r.id}>{o ? formatUs(o.service[p]) : '—'}</td>; })}</tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
