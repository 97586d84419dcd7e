import { useState } from 'react';
import type { BenchmarkRequestInput } from '@strata/api';
import { useBenchmarksQuery } from '../../../data/benchmarks/benchmarks-query';
import { useBenchmarkPresetsQuery, type SizedPreset as Preset } from '../../../data/benchmarks/benchmark-presets-query';
import { useBenchmarkStartMutation } from '../../../data/benchmarks/benchmark-start-mutation';
import { isBenchmarkActive } from '../../../data/benchmarks/keys';
import { Link, navigate, useLocation } from '../../../lib/router';
import { formatAgo } from '../../../lib/format';
import { useNow } from '../../../lib/hooks';
import { ErrorState, InlineAlert, LoadingState } from '../../../components/ui/States';
import { Badge } from '../../../components/ui/Badge';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { AdvancedForm } from './AdvancedForm';
import { RunView } from './RunView';
import { CompareView } from './CompareView';
import { ScalingView } from './ScalingView';
import { WORKLOAD_LABELS, headline } from './bench-format';
import './benchmarks.css';

/** The cluster's Benchmarks tab: presets, advanced form, history; a run or a comparison by query string. */
export function BenchmarksTab({ clusterId }: { clusterId: string }) {
  const { search } = useLocation();
  const base = `/clusters/${clusterId}/benchmarks`;
  const run = search.get('run');
  const compare = search.get('compare')?.split(',').filter(Boolean);
  if (compare && compare.length === 2) return <CompareView ids={[compare[0]!, compare[1]!]} back={base} />;
  if (run) return <RunView id={run} back={base} />;
  return <Launcher clusterId={clusterId} base={base} />;
}

function Launcher({ clusterId, base }: { clusterId: string; base: string }) {
  const presets = useBenchmarkPresetsQuery(clusterId);
  const list = useBenchmarksQuery(clusterId);
  const start = useBenchmarkStartMutation(clusterId);
  const [picked, setPicked] = useState<string[]>([]);
  const now = useNow(5000);
  const active = list.data?.items.find((b) => isBenchmarkActive(b.state));

  const [confirming, setConfirming] = useState<Preset | null>(null);
  const launch = (request: BenchmarkRequestInput, title = 'Benchmark') =>
    start.mutate(request, {
      onSuccess: (b) => {
        setConfirming(null);
        toast(`${title} started.`);
        navigate(`${base}?run=${b.id}`);
      },
    });

  return (
    <div className="bench">
      {active && (
        <InlineAlert tone="info" title="A benchmark is running on this cluster">
          <Link to={`${base}?run=${active.id}`}>Follow its progress</Link>. Only one runs at a time.
        </InlineAlert>
      )}
      {start.isError && !confirming && <InlineAlert tone="danger" title="Could not start the benchmark">{start.error.summary}</InlineAlert>}
      <section aria-labelledby="presets-title">
        <h2 id="presets-title" className="section-title">One-click presets</h2>
        {presets.isPending ? <LoadingState label="Loading presets…" /> : presets.isError ? <ErrorState error={presets.error} title="Could not load presets" onRetry={() => void presets.refetch()} /> : (
          <div className="bench-presets">
            {presets.data.items.map((p) => (
              <article key={p.id} className="card bench-preset" data-testid={`preset-${p.id}`}>
                <h3 className="card-title">{p.title}</h3>
                <p className="muted">{p.description}</p>
                <p className="bench-preset-size">{p.request.recordCount.toLocaleString('en')} records · {p.request.connections} connections{p.request.pipeline > 1 ? ` · pipeline ${p.request.pipeline}` : ''}</p>
                <p className={p.disruptive ? 'bench-preset-impact disruptive' : 'bench-preset-impact'} data-testid="preset-impact">
                  <strong>{p.disruptive ? 'Disrupts service: ' : 'What it does: '}</strong>
                  {p.impact}
                </p>
                <button
                  type="button"
                  className={p.disruptive ? 'btn btn-danger-outline' : 'btn btn-primary'}
                  disabled={!!active || start.isPending}
                  onClick={() => (p.disruptive ? setConfirming(p) : launch(p.request, p.title))}
                  aria-label={`Run ${p.title}`}
                >
                  Run
                </button>
              </article>
            ))}
          </div>
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        testId="preset-confirm"
        title={confirming ? `Run "${confirming.title}"?` : ''}
        confirmLabel="Run and kill the primary"
        pendingLabel="Starting…"
        pending={start.isPending}
        error={start.error?.summary ?? null}
        onClose={() => {
          setConfirming(null);
          start.reset();
        }}
        onConfirm={() => confirming && launch(confirming.request, confirming.title)}
        impact={confirming && <p>{confirming.impact}</p>}
      />
      <details className="card bench-advanced">
        <summary>Advanced: choose every parameter</summary>
        <AdvancedForm disabled={!!active || start.isPending} onSubmit={launch} error={start.error} />
      </details>
      <section aria-labelledby="history-title">
        <div className="bench-history-head">
          <h2 id="history-title" className="section-title">Runs</h2>
          <button type="button" className="btn btn-secondary btn-sm" disabled={picked.length !== 2} onClick={() => navigate(`${base}?compare=${picked.join(',')}`)}>
            Compare selected ({picked.length}/2)
          </button>
        </div>
        {list.isPending ? <LoadingState label="Loading runs…" /> : list.isError ? <ErrorState error={list.error} title="Could not load runs" onRetry={() => void list.refetch()} /> : list.data.items.length === 0 ? (
          <p className="muted">No runs yet. Pick a preset above.</p>
        ) : (
          <table className="table table-cards" data-testid="bench-runs">
            <thead><tr><th scope="col"><span className="sr-only">Compare</span></th><th scope="col">Workload</th><th scope="col">State</th><th scope="col">Result</th><th scope="col">Started</th></tr></thead>
            <tbody>
              {list.data.items.map((b) => (
                <tr key={b.id}>
                  <td data-label="Compare"><input type="checkbox" aria-label={`Compare run ${b.id.slice(0, 8)}`} checked={picked.includes(b.id)} disabled={!b.result} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, b.id].slice(-2) : p.filter((x) => x !== b.id)))} /></td>
                  <td data-label="Workload"><Link to={`${base}?run=${b.id}`}>{WORKLOAD_LABELS[b.workload] ?? b.workload}</Link></td>
                  <td data-label="State"><Badge tone={b.state === 'succeeded' ? (b.result?.validity.valid ? 'success' : 'warning') : b.state === 'failed' ? 'danger' : isBenchmarkActive(b.state) ? 'info' : 'neutral'}>{b.state === 'succeeded' && b.result && !b.result.validity.valid ? 'invalid' : b.state}</Badge></td>
                  <td data-label="Result">{b.result ? headline(b.result) : '—'}</td>
                  <td data-label="Started">{formatAgo(b.createdAt, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {list.data && <ScalingView items={list.data.items} base={base} />}
    </div>
  );
}
