import { useState } from 'react';
import { describeWindow, windowState, type Cluster } from '@strata/api';
import { useClusterRestartMutation } from '../../../data/clusters/cluster-restart-mutation';
import { isApiError } from '../../../data/fetcher';
import { formatDateTime, plural } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';

/** Rolling restart: every engine once, replicas first, each primary after a data-safe switchover; asks first, saying what it does. */
export function RestartPanel({ cluster, busy }: { cluster: Cluster; busy: boolean }) {
  const restart = useClusterRestartMutation(cluster.id);
  const [asking, setAsking] = useState(false);
  const window = cluster.spec.maintenanceWindow;
  const [inWindow, setInWindow] = useState(true);
  const waits = !!window && inWindow;
  const next = window ? windowState(window, Date.now()) : null;
  const { shards, replicasPerShard, durability } = cluster.spec;
  const instances = shards * (replicasPerShard + 1);
  const unsafe = replicasPerShard === 0 && durability === 'none';
  const close = () => {
    setAsking(false);
    restart.reset();
  };
  return (
    <section className="card settings-card" aria-labelledby="restart-title" data-testid="restart-panel">
      <h2 id="restart-title" className="card-title">Rolling restart</h2>
      <p className="muted small">
        Restarts every engine once, one at a time: replicas first, then each primary after it hands its role to an in-sync replica.
        No acknowledged write is lost; the restart pauses while the cluster is not healthy.
      </p>
      {unsafe && (
        <p className="muted small" data-testid="restart-unsafe">
          Not available: the shards have no replica and no append-only file, so restarting a primary would empty its shard.
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" disabled={busy || unsafe || cluster.status.phase !== 'ready'} onClick={() => setAsking(true)}>
          Restart all engines
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        testId="restart-confirm"
        title={`Restart all ${plural(instances, 'engine')} of ${cluster.name}${waits ? ' in its maintenance window' : ''}?`}
        tone="primary"
        confirmLabel="Restart"
        pendingLabel="Starting…"
        pending={restart.isPending}
        error={restart.error ? (isApiError(restart.error) ? restart.error.summary : String(restart.error)) : null}
        onClose={close}
        onConfirm={() => restart.mutate(window ? { when: waits ? 'maintenance_window' : 'now' } : {}, {
          onSuccess: ({ operation }) => {
            close();
            toast(operation.startsAt || waits
              ? 'Rolling restart scheduled: it waits for the maintenance window (shown at the top of the cluster page, where it can be cancelled).'
              : 'Rolling restart started: its progress shows at the top of the cluster page.');
          },
        })}
        impact={
          <ul>
            {window && next && (
              <li>
                <fieldset className="mw-choice" data-testid="restart-when">
                  <legend className="visually-hidden">When</legend>
                  <label><input type="radio" name="restart-when" checked={inWindow} onChange={() => setInWindow(true)} /> In the maintenance window ({describeWindow(window)}{next.open ? ', open now' : `, next ${formatDateTime(next.opensAt)}`})</label>
                  <label><input type="radio" name="restart-when" checked={!inWindow} onChange={() => setInWindow(false)} /> Now</label>
                </fieldset>
              </li>
            )}
            <li>{plural(instances, 'engine')} restart one after another; each is waited for until it is back in sync.</li>
            {replicasPerShard > 0
              ? <li>Each shard&apos;s primary first hands over to a replica: writes to that shard pause for about a second, no acknowledged write is lost.</li>
              : <li>Each primary restarts in place and reloads its append-only file: its shard is unavailable for a few seconds.</li>}
            {durability === 'none' && replicasPerShard > 0 && <li>Without persistence, a restarted engine comes back empty and copies its primary again (a full sync).</li>}
            <li>Primaries move back to their preferred nodes afterwards.</li>
          </ul>
        }
      />
    </section>
  );
}
