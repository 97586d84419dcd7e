import { useCallback, useMemo, useState } from 'react';
import type { Benchmark, BenchmarkPoint } from '@strata/api';
import { useBenchmarkQuery } from '../../../data/benchmarks/benchmark-query';
import { useBenchmarkCancelMutation } from '../../../data/benchmarks/benchmark-cancel-mutation';
import { useBenchmarkStream } from '../../../data/benchmarks/benchmark-stream';
import { isBenchmarkActive } from '../../../data/benchmarks/keys';
import { Link } from '../../../lib/router';
import { toast } from '../../../lib/toast';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { ErrorState, InlineAlert, LoadingState } from '../../../components/ui/States';
import { BenchChart } from './BenchChart';
import { ResultView } from './ResultView';
import { WORKLOAD_LABELS, formatOps, formatUs, seriesData } from './bench-format';

/** One run: live progress and chart while active, the result once finished. */
export function RunView({ id, back }: { id: string; back: string }) {
  const q = useBenchmarkQuery(id);
  const cancel = useBenchmarkCancelMutation();
  const [points, setPoints] = useState<BenchmarkPoint[]>([]);
  const active = !!q.data && isBenchmarkActive(q.data.state);
  const onPoint = useCallback((p: BenchmarkPoint) => setPoints((ps) => (ps.some((x) => x.t === p.t) ? ps : [...ps, p])), []);
  useBenchmarkStream(id, active, onPoint);
  const data = useMemo(() => seriesData(points), [points]);

  if (q.isPending) return <LoadingState label="Loading benchmark…" />;
  if (q.isError) return <ErrorState error={q.error} title="Could not load the benchmark" onRetry={() => void q.refetch()} />;
  const b: Benchmark = q.data;
  return (
    <div className="bench">
      <p><Link to={back}>← All benchmarks</Link></p>
      <h2 className="section-title">{WORKLOAD_LABELS[b.workload] ?? b.workload}</h2>
      {active ? (
        <section className="card bench-live" aria-live="polite" data-testid="bench-progress">
          <div className="bench-live-head">
            <strong>{b.state === 'pending' ? 'Starting workers on the nodes' : b.state === 'loading' ? 'Loading records' : b.state === 'warmup' ? 'Warming up' : 'Running'}</strong>
            <span>{Math.round(b.progress * 100)}%</span>
          </div>
          <ProgressBar value={b.progress} label="Benchmark progress" />
          <p className="muted">{b.detail || (b.state === 'pending' ? 'Each node starts its load generator and connects to every primary; this takes a few seconds.' : '')}</p>
          {points.length > 0 && (
            <>
              <p className="bench-live-now">Last second: <strong>{formatOps(points[points.length - 1]!.ops)} ops/s</strong>, p99 {formatUs(points[points.length - 1]!.p99)}</p>
              <BenchChart testId="bench-live-chart" label="Live throughput and latency" data={[data[0], data[1]]} series={[{ label: 'ops/s', color: '#3b5bdb' }]} yFormat={formatOps} seconds />
            </>
          )}
          <button type="button" className="btn btn-danger-outline" disabled={cancel.isPending} onClick={() => cancel.mutate(b.id, { onSuccess: () => toast('Benchmark cancelled: its workers stop and its keys are removed.', 'info') })}>Cancel</button>
          {cancel.isError && <InlineAlert tone="danger" title="Could not cancel">{cancel.error.summary}</InlineAlert>}
        </section>
      ) : b.result ? (
        <ResultView b={b} />
      ) : (
        <InlineAlert tone={b.state === 'cancelled' ? 'warning' : 'danger'} title={`Benchmark ${b.state}`}>{b.error?.message ?? 'No result.'}</InlineAlert>
      )}
    </div>
  );
}
