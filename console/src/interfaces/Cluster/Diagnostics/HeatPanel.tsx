import { shardLabel } from '@strata/api';
import { useHeatQuery } from '../../../data/diagnostics/heat-query';
import { ErrorState, LoadingState } from '../../../components/ui/States';
import { formatBytes, formatPercent, formatRate } from '../Monitoring/format';

/** Ops/s and memory per shard side by side, shaded against the busiest (fullest) shard, so skew shows at a glance. */
export function HeatPanel({ clusterId }: { clusterId: string }) {
  const heat = useHeatQuery(clusterId);
  if (heat.isPending) return <LoadingState label="Loading shard load…" />;
  if (heat.isError) return <ErrorState error={heat.error} title="Could not load shard load" onRetry={() => void heat.refetch()} />;
  const h = heat.data;
  const maxOps = Math.max(0, ...h.shards.map((s) => s.opsPerSec ?? 0));
  const maxMem = Math.max(0, ...h.shards.map((s) => s.memoryUsedBytes ?? 0));
  const skew = (x: number | null, what: string, known: boolean) =>
    (x !== null ? `${what}: busiest shard ${x.toFixed(2)}× the mean` : known ? `${what}: none` : `${what}: no samples yet`);
  return (
    <section className="card" aria-labelledby="heat-title" data-testid="heat-panel">
      <div className="diag-head">
        <h2 id="heat-title" className="card-title">Load and memory by shard</h2>
        <p className="muted small" data-testid="heat-skew">
          {skew(h.skew.ops, 'Ops', h.shards.some((s) => s.opsPerSec !== null))} · {skew(h.skew.memory, 'Memory', h.shards.some((s) => s.memoryUsedBytes !== null)).replace('busiest', 'fullest')} (last {h.windowSeconds} s)
        </p>
      </div>
      <div className="heat-grid" style={{ ['--shards' as string]: h.shards.length }} role="table" aria-label="Ops and memory by shard">
        <div role="row" style={{ display: 'contents' }}>
          <span className="heat-row-label" role="columnheader">Shard</span>
          {h.shards.map((s) => <span key={s.shard} className="heat-head" role="columnheader">{shardLabel(s.shard)}</span>)}
        </div>
        <div role="row" style={{ display: 'contents' }}>
          <span className="heat-row-label" role="rowheader">Ops/s</span>
          {h.shards.map((s) => (
            <span key={s.shard} role="cell" data-testid="heat-ops" className={maxOps > 0 && s.opsPerSec === maxOps ? 'heat-cell hottest' : 'heat-cell'}
              style={{ ['--heat' as string]: (maxOps > 0 ? (s.opsPerSec ?? 0) / maxOps : 0).toFixed(3) }}>
              <span className="heat-value tabular">{formatRate(s.opsPerSec, '')}</span>
              <span className="heat-share">{formatPercent(s.opsShare)} of ops</span>
            </span>
          ))}
        </div>
        <div role="row" style={{ display: 'contents' }}>
          <span className="heat-row-label" role="rowheader">Memory</span>
          {h.shards.map((s) => (
            <span key={s.shard} role="cell" data-testid="heat-memory" className={maxMem > 0 && s.memoryUsedBytes === maxMem ? 'heat-cell hottest' : 'heat-cell'}
              style={{ ['--heat' as string]: (maxMem > 0 ? (s.memoryUsedBytes ?? 0) / maxMem : 0).toFixed(3) }}>
              <span className="heat-value tabular">{formatBytes(s.memoryUsedBytes)}</span>
              <span className="heat-share">{formatPercent(s.memoryMaxBytes ? (s.memoryUsedBytes ?? 0) / s.memoryMaxBytes : null)} of its limit</span>
            </span>
          ))}
        </div>
      </div>
    </section>
  );
}
