import { useState } from 'react';
import { shardLabel, shardName, type Cluster, type Topology } from '@strata/api';
import { useShardSwitchoverMutation } from '../../../data/clusters/shard-switchover-mutation';
import { useClusterTopologyQuery } from '../../../data/clusters/cluster-topology-query';
import { isApiError } from '../../../data/fetcher';
import { plural } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';

type Shard = Topology['shards'][number];

/** One button per shard: promote its replica without losing acknowledged writes, after saying what it does. */
export function SwitchoverPanel({ cluster, busy }: { cluster: Cluster; busy: boolean }) {
  const topology = useClusterTopologyQuery(cluster.id, { fast: busy });
  const switchover = useShardSwitchoverMutation(cluster.id);
  const [asking, setAsking] = useState<Shard | null>(null);
  const primary = asking?.instances.find((i) => i.role === 'primary');
  const target = asking?.instances.find((i) => i.role === 'replica' && i.health === 'healthy') ?? asking?.instances.find((i) => i.role === 'replica');
  const close = () => {
    setAsking(null);
    switchover.reset();
  };
  return (
    <section className="card settings-card" aria-labelledby="switchover-title">
      <h2 id="switchover-title" className="card-title">Switchover</h2>
      <p className="muted small">Promotes a shard's replica once it has caught up (CLUSTER FAILOVER): the primary pauses writes for a moment, no acknowledged write is lost.</p>
      <ul className="list-plain switchover-list" data-testid="switchover-list">
        {topology.data?.shards.map((s) => {
          const p = s.instances.find((i) => i.role === 'primary');
          const replicas = s.instances.filter((i) => i.role === 'replica');
          return (
            <li key={s.index} className="row-between">
              <span>
                <strong data-testid="shard-label">{shardLabel(s.index)}</strong>: primary <code>{p?.address ?? '—'}</code>
                {p ? ` on ${p.nodeName}` : ''} ({plural(replicas.length, 'replica')})
              </span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={busy || replicas.length === 0}
                onClick={() => setAsking(s)}
                aria-label={`Switch over ${shardName(s.index)}`}
              >
                Switch over
              </button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        testId="switchover-confirm"
        title={asking ? `Switch over ${shardLabel(asking.index)}?` : ''}
        tone="primary"
        confirmLabel="Switch over"
        pendingLabel="Switching over…"
        pending={switchover.isPending}
        error={switchover.error ? (isApiError(switchover.error) ? switchover.error.summary : String(switchover.error)) : null}
        onClose={close}
        onConfirm={() => {
          if (!asking) return;
          const index = asking.index;
          switchover.mutate(
            { shard: index },
            {
              onSuccess: () => {
                close();
                toast(`Switchover of ${shardLabel(index)} started: its replica takes over once it has caught up.`);
              },
            },
          );
        }}
        impact={
          asking && (
            <>
              <p>
                {shardLabel(asking.index)}&apos;s primary {primary ? <code>{primary.address}</code> : '—'}
                {primary ? ` on ${primary.nodeName}` : ''} hands over to {target ? <>the replica <code>{target.address}</code> on {target.nodeName}</> : 'its replica'} once
                the replica has caught up.
              </p>
              <ul>
                <li>Writes to {shardName(asking.index)} pause for about a second; reads continue.</li>
                <li>No acknowledged write is lost. Clients follow the new primary through the cluster's redirects.</li>
                <li>The old primary stays as a replica.</li>
              </ul>
            </>
          )
        }
      />
    </section>
  );
}
