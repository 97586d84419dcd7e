import { shardLabel } from '@strata/api';
import type { ClusterPhase, Topology } from '@strata/api';
import { useClusterTopologyQuery } from '../../data/clusters/cluster-topology-query';
import { isTransitional } from '../../data/polling';
import { formatSlotRange } from '../../lib/format';
import { Badge, HealthDot } from '../../components/ui/Badge';
import { ErrorState } from '../../components/ui/States';
import { SlotBar, shardColor, slotCount } from './SlotBar';
import { InstanceSync } from './InstanceSync';
import { shardRebuild } from '../../lib/shard-rebuild';
import { shownRole } from '../../lib/instance-role';

export function TopologyPanel({ clusterId, phase }: { clusterId: string; phase: ClusterPhase }) {
  const topology = useClusterTopologyQuery(clusterId, { fast: isTransitional(phase) });
  return (
    <section className="card" aria-labelledby="topology-title" data-testid="topology">
      <div className="card-head">
        <h2 id="topology-title" className="card-title">
          Topology
        </h2>
        <span className="muted small">One row per shard; bars show each shard&apos;s hash slots on 0–16383.</span>
      </div>
      {topology.isPending ? (
        <TopologySkeleton />
      ) : topology.isError ? (
        <ErrorState error={topology.error} title="Could not load the topology" onRetry={() => void topology.refetch()} />
      ) : topology.data.shards.length === 0 ? (
        <p className="muted pad">No shards yet. They appear here as soon as instances are placed on nodes.</p>
      ) : (
        <TopologyRows topology={topology.data} phase={phase} />
      )}
    </section>
  );
}

const ROLE_ORDER = { Primary: 0, Replica: 1, Starting: 2, Down: 3 } as const;

function TopologyRows({ topology, phase }: { topology: Topology; phase: ClusterPhase }) {
  const shards = [...topology.shards].sort((a, b) => a.index - b.index);
  return (
    <ol className="shards" aria-label="Shards">
      {shards.map((shard) => {
        const order = (i: (typeof shard.instances)[number]) => ROLE_ORDER[shownRole(i, phase).label];
        const instances = [...shard.instances].sort((a, b) => order(a) - order(b) || a.address.localeCompare(b.address));
        const rebuilding = shardRebuild(shard, phase);
        return (
          <li key={shard.index} className="shard" data-testid="shard-row">
            <div className="shard-meta">
              <div className="shard-name">
                <span className="shard-swatch" style={{ background: shardColor(shard.index) }} aria-hidden="true" />
                <span data-testid="shard-label">{shardLabel(shard.index)}</span>
              </div>
              <div className="muted small tabular">
                {shard.slots.length ? shard.slots.map(formatSlotRange).join(', ') : 'no slots'}
                <br />
                {slotCount(shard.slots).toLocaleString()} slots
              </div>
              {rebuilding && (
                <div className="small warning-text" data-testid="shard-rebuilding">
                  {rebuilding[0]!.toUpperCase() + rebuilding.slice(1)}
                </div>
              )}
            </div>
            <div className="shard-bar">
              <SlotBar ranges={shard.slots} index={shard.index} />
            </div>
            <ul className="instances" aria-label={`${shardLabel(shard.index)} instances`}>
              {instances.length === 0 && <li className="muted small">Placing instances…</li>}
              {instances.map((inst) => {
                const shown = shownRole(inst, phase);
                return (
                  <li key={inst.id} className="instance" data-testid="instance" data-role={shown.label.toLowerCase()}>
                    <HealthDot health={inst.health} />
                    <Badge tone={shown.tone} testId="instance-role">{shown.label}</Badge>
                    <span className="instance-node">{inst.nodeName}</span>
                    <code className="instance-addr" data-testid="instance-address">{inst.address}</code>
                    <InstanceSync instance={inst} />
                    {shown.note && (
                      <span className={`instance-note small ${shown.tone === 'danger' || shown.tone === 'warning' ? 'warning-text' : 'muted'}`} data-testid={shown.label === 'Replica' ? 'preferred-primary' : 'instance-note'}>
                        {shown.note}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}

function TopologySkeleton() {
  return (
    <div className="shards" aria-busy="true" aria-label="Loading topology">
      {[0, 1, 2].map((i) => (
        <div key={i} className="shard">
          <span className="skeleton" style={{ width: '70%' }} />
          <span className="skeleton" style={{ width: '100%', height: 12 }} />
          <span className="skeleton" style={{ width: '85%' }} />
        </div>
      ))}
    </div>
  );
}
