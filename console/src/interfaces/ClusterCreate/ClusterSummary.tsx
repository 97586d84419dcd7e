import { shardLabel, shardNumber } from '@strata/api';
import type { Durability } from '@strata/api';
import type { ApiError } from '../../data/fetcher';
import { formatMemoryMb, plural } from '../../lib/format';
import { datasetMemoryMb, instanceCount, reservedMemoryMb, slotsPerShard, type ClusterShape } from '../../lib/cluster-math';
import type { CapacityCheck } from '../../lib/capacity';
import { DURABILITY_OPTIONS } from './options';

interface Props {
  shape: ClusterShape | null;
  durability: Durability;
  check: CapacityCheck | null;
  capacityError: ApiError | null;
}

/** The wizard's live summary: what will be created and whether the nodes can hold it. */
export function ClusterSummary({ shape, durability, check, capacityError }: Props) {
  return (
    <section className="card summary" aria-labelledby="summary-title" data-testid="cluster-summary">
      <h2 id="summary-title" className="card-title">
        Summary
      </h2>
      {!shape ? (
        <p className="muted">Enter valid shard and replica counts to see the summary.</p>
      ) : (
        <>
          <dl className="summary-list">
            <div>
              <dt>Instances</dt>
              <dd data-testid="summary-instances">
                <strong>{instanceCount(shape)}</strong>
                <span className="muted">
                  {' '}
                  {plural(shape.shards, 'primary', 'primaries')} + {plural(shape.shards * shape.replicasPerShard, 'replica')}
                </span>
              </dd>
            </div>
            <div>
              <dt>Nodes used</dt>
              <dd data-testid="summary-nodes">
                {check?.nodesUsed != null ? (
                  <>
                    <strong>{check.nodesUsed}</strong>
                    <span className="muted"> of {plural(check.onlineNodes, 'online node')}</span>
                  </>
                ) : check ? (
                  <span className="muted">Does not fit on the {plural(check.onlineNodes, 'online node')}</span>
                ) : capacityError ? (
                  <span className="muted">Unknown (could not read capacity)</span>
                ) : (
                  <span className="muted">Checking nodes…</span>
                )}
              </dd>
            </div>
            <div>
              <dt>Total memory</dt>
              <dd data-testid="summary-memory">
                <strong>{formatMemoryMb(reservedMemoryMb(shape))}</strong>
                <span className="muted"> reserved · {formatMemoryMb(datasetMemoryMb(shape))} for data</span>
              </dd>
            </div>
            <div>
              <dt>Hash slots</dt>
              <dd>
                <strong>~{slotsPerShard(shape.shards).toLocaleString()}</strong>
                <span className="muted"> per shard of 16,384</span>
              </dd>
            </div>
            <div>
              <dt>Durability</dt>
              <dd>{DURABILITY_OPTIONS[durability].title}</dd>
            </div>
          </dl>
          <div className="summary-placement">
            <h3 className="summary-subtitle">Where replicas go</h3>
            {shape.replicasPerShard === 0 ? (
              <p className="muted">
                No replicas: each shard has a single primary. If its node fails, that shard is unavailable until the node returns.
              </p>
            ) : (
              <p className="muted">
                Each shard&apos;s {shape.replicasPerShard === 1 ? 'replica runs' : `${shape.replicasPerShard} replicas run`} on{' '}
                {shape.replicasPerShard === 1 ? 'a different node' : 'different nodes'} from its primary, so losing one node never
                loses a shard. Each shard needs {plural(1 + shape.replicasPerShard, 'distinct node')}.
              </p>
            )}
            {check?.ok && <PlacementPreview shape={shape} onlineNodes={check.onlineNodes} />}
          </div>
          {check?.problem && (
            <p className="summary-problem" role="alert">
              {check.problem.message}
            </p>
          )}
        </>
      )}
    </section>
  );
}

const MAX_PREVIEW_NODES = 6;
const MAX_PREVIEW_SHARDS = 12;

/** A sketch of one valid spread (round-robin); the scheduler picks the real one. */
function PlacementPreview({ shape, onlineNodes }: { shape: ClusterShape; onlineNodes: number }) {
  // Nodes stay anonymous: which machines exist is the platform's business.
  const online = Array.from({ length: onlineNodes }, (_, i) => ({ id: i, name: `Node ${i + 1}` }));
  if (online.length === 0 || 1 + shape.replicasPerShard > online.length || shape.shards > MAX_PREVIEW_SHARDS) return null;
  const shown = online.slice(0, MAX_PREVIEW_NODES);
  const cells: { shard: number; role: 'P' | 'R' }[][] = shown.map(() => []);
  for (let s = 0; s < shape.shards; s++) {
    for (let r = 0; r <= shape.replicasPerShard; r++) {
      const n = (s + r) % online.length;
      if (n < shown.length) cells[n]!.push({ shard: s, role: r === 0 ? 'P' : 'R' });
    }
  }
  return (
    <div className="placement" aria-label="Example placement of primaries and replicas on nodes" role="group">
      {shown.map((node, i) => (
        <div key={node.id} className="placement-node">
          <div className="placement-node-name" title={node.name}>
            {node.name}
          </div>
          <div className="placement-chips">
            {cells[i]!.length === 0 ? (
              <span className="muted small">idle</span>
            ) : (
              cells[i]!.map((c) => (
                <span
                  key={`${c.shard}${c.role}`}
                  className={c.role === 'P' ? 'chip chip-primary' : 'chip chip-replica'}
                  title={`${shardLabel(c.shard)} ${c.role === 'P' ? 'primary' : 'replica'}`}
                >
                  S{shardNumber(c.shard)}
                  <span className="visually-hidden">{c.role === 'P' ? ' primary' : ' replica'}</span>
                  {c.role === 'R' && <span aria-hidden="true">′</span>}
                </span>
              ))
            )}
          </div>
        </div>
      ))}
      <p className="placement-legend small muted">
        <span className="chip chip-primary">S1</span> primary <span className="chip chip-replica">S1′</span> replica · an example
        spread; Strata&apos;s scheduler decides the final placement.
      </p>
    </div>
  );
}
