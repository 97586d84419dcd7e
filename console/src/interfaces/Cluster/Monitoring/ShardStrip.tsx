import { shardLabel, shardName } from '@strata/api';
import { formatPercent, formatRate } from './format';

/** One cell per shard, shaded by its share of the cluster's ops; the hottest shard is named. */
export function ShardStrip({ shards }: { shards: { shard: number; ops: number | null }[] }) {
  const total = shards.reduce((s, x) => s + (x.ops ?? 0), 0);
  const max = Math.max(0, ...shards.map((s) => s.ops ?? 0));
  const hottest = shards.find((s) => (s.ops ?? 0) === max && max > 0);
  return (
    <section className="card shard-strip" aria-labelledby="shard-strip-title">
      <div className="card-head">
        <h3 id="shard-strip-title" className="card-title">Load by shard</h3>
        <p className="muted small" data-testid="hottest-shard">
          {hottest ? `Hottest: ${shardName(hottest.shard)} · ${formatRate(hottest.ops)} (${formatPercent(total ? max / total : null)} of the cluster)` : 'No traffic'}
        </p>
      </div>
      <ol className="shard-cells">
        {shards.map((s) => {
          const heat = max > 0 ? (s.ops ?? 0) / max : 0;
          return (
            <li
              key={s.shard}
              className={s === hottest ? 'shard-cell hottest' : 'shard-cell'}
              style={{ ['--heat' as string]: heat.toFixed(3) }}
              data-testid="shard-cell"
              title={`${shardLabel(s.shard)}: ${formatRate(s.ops)}`}
            >
              <span className="shard-cell-name" data-testid="shard-label">{shardLabel(s.shard)}</span>
              <span className="shard-cell-value tabular">{formatRate(s.ops, '')}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
