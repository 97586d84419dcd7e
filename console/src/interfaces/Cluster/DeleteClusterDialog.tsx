import { useState, type FormEvent } from 'react';
import type { Cluster } from '@strata/api';
import { useClusterDeleteMutation } from '../../data/clusters/cluster-delete-mutation';
import { navigate } from '../../lib/router';
import { toast } from '../../lib/toast';
import { Dialog } from '../../components/ui/Dialog';
import { Field } from '../../components/ui/Field';
import { InlineAlert } from '../../components/ui/States';

/** Delete, confirmed by typing the cluster's name. */
export function DeleteClusterDialog({ cluster, open, onClose }: { cluster: Cluster; open: boolean; onClose: () => void }) {
  const del = useClusterDeleteMutation();
  const [typed, setTyped] = useState('');
  const matches = typed === cluster.name;
  const instances = cluster.spec.shards * (1 + cluster.spec.replicasPerShard);

  function close() {
    setTyped('');
    del.reset();
    onClose();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!matches) return;
    // mutateAsync, not mutate's per-call onSuccess: when the pushed state says the cluster is gone before the
    // DELETE response arrives, this dialog unmounts, and per-call callbacks of an unmounted observer never fire.
    del.mutateAsync(cluster.id).then(
      () => {
        close();
        toast(`${cluster.name} is being deleted: its instances stop and its data is removed.`, 'info');
        navigate('/clusters');
      },
      () => undefined, // shown from del.error
    );
  }

  return (
    <Dialog open={open} onClose={close} title={`Delete ${cluster.name}?`} labelledBy="delete-title">
      <form onSubmit={onSubmit} className="stack">
        <p>
          This stops {instances === 1 ? 'the cluster\'s only instance' : `all ${instances} of the cluster's instances`} and deletes their data. Clients
          using this cluster are disconnected. This cannot be undone.
        </p>
        {del.error && (
          <InlineAlert tone="danger" title="The cluster was not deleted">
            {del.error.summary}
          </InlineAlert>
        )}
        <Field label={`Type ${cluster.name} to confirm`}>
          <input
            className="input"
            name="confirm-name"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={!matches || del.isPending}>
            {del.isPending ? 'Deleting…' : 'Delete cluster'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
