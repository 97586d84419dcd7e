import { useState } from 'react';
import type { Node } from '@strata/api';
import { useNodeDrainMutation } from '../../data/nodes/node-drain-mutation';
import { toast } from '../../lib/toast';
import { plural } from '../../lib/format';
import { Badge } from '../../components/ui/Badge';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';

/**
 * Drain a node for maintenance (platform admins): primaries on it switch
 * over, every copy is rebuilt elsewhere, and it takes no new instances until
 * undrained. Asks first, saying what moves; the result shows as a toast.
 */
export function DrainControl({ node }: { node: Node }) {
  const drain = useNodeDrainMutation();
  const [confirming, setConfirming] = useState(false);
  const busy = drain.isPending;
  const moving = node.instances.length;
  const primaries = node.instances.filter((i) => i.role === 'primary').length;
  const set = (draining: boolean) =>
    drain.mutate(
      { id: node.id, draining },
      {
        onSuccess: () => {
          setConfirming(false);
          toast(draining ? `${node.name} is draining: ${plural(moving, 'instance')} move to other nodes.` : `${node.name} takes new instances again.`);
        },
        onError: (e) => {
          if (!draining) toast(`Could not undrain ${node.name}: ${e.message}`, 'danger');
        },
      },
    );
  return (
    <div className="drain-control">
      {node.draining && (
        <Badge tone="warning" pulse={moving > 0} testId="node-draining">
          {moving > 0 ? `Draining · ${moving} left` : 'Drained'}
        </Badge>
      )}
      {node.draining ? (
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => set(false)}>
          Undrain
        </button>
      ) : (
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy || node.status !== 'online'} onClick={() => setConfirming(true)}
          title={node.status !== 'online' ? 'Only an online node can be drained' : 'Move every instance off this node for maintenance'}>
          Drain
        </button>
      )}
      <ConfirmDialog
        open={confirming}
        testId="drain-confirm"
        title={`Drain ${node.name}?`}
        confirmLabel={`Move ${plural(moving, 'instance')} off ${node.name}`}
        pendingLabel="Draining…"
        pending={busy}
        error={drain.error?.message ?? null}
        onClose={() => {
          setConfirming(false);
          drain.reset();
        }}
        onConfirm={() => set(true)}
        impact={
          <ul>
            {primaries > 0 && <li>{plural(primaries, 'primary', 'primaries')} on {node.name} switch over to replicas on other nodes: writes to each of those shards pause for about a second.</li>}
            <li>Every copy on {node.name} is rebuilt on another node and kept until the new copy is in sync: no acknowledged write is lost.</li>
            <li>{node.name} takes no new instances until you undrain it.</li>
          </ul>
        }
      />
    </div>
  );
}
