import { useState } from 'react';
import type { Node } from '@strata/api';
import { useNodeDrainMutation } from '../../data/nodes/node-drain-mutation';
import { Badge } from '../../components/ui/Badge';

/**
 * Drain a node for maintenance (platform admins): primaries on it switch
 * over, every copy is rebuilt elsewhere, and it takes no new instances until
 * undrained. Asks once before draining, since it moves data.
 */
export function DrainControl({ node }: { node: Node }) {
  const drain = useNodeDrainMutation();
  const [confirming, setConfirming] = useState(false);
  const busy = drain.isPending;
  const moving = node.instances.length;
  return (
    <div className="drain-control">
      {node.draining && (
        <Badge tone="warning" pulse={moving > 0} testId="node-draining">
          {moving > 0 ? `Draining · ${moving} left` : 'Drained'}
        </Badge>
      )}
      {node.draining ? (
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => drain.mutate({ id: node.id, draining: false })}>
          Undrain
        </button>
      ) : confirming ? (
        <span className="drain-confirm">
          <button type="button" className="btn btn-danger-outline btn-sm" disabled={busy} onClick={() => { setConfirming(false); drain.mutate({ id: node.id, draining: true }); }}>
            Move {moving} instance{moving === 1 ? '' : 's'} off {node.name}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy || node.status !== 'online'} onClick={() => setConfirming(true)}
          title={node.status !== 'online' ? 'Only an online node can be drained' : 'Move every instance off this node for maintenance'}>
          Drain
        </button>
      )}
      {drain.isError && <div className="small danger-text" role="alert">{drain.error.message}</div>}
    </div>
  );
}
