import { useState } from 'react';
import type { Node } from '@strata/api';
import { useNodeCredentialRevokeMutation } from '../../data/nodes/node-credential-mutation';
import { toast } from '../../lib/toast';
import { plural } from '../../lib/format';
import { Badge } from '../../components/ui/Badge';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';

/**
 * Revoke a node agent's credential (platform admins), e.g. for a host that
 * was compromised or retired: its reports and task polls are refused from
 * then on. Asks first, saying what follows; a revoked node says so.
 */
export function CredentialControl({ node }: { node: Node }) {
  const revoke = useNodeCredentialRevokeMutation();
  const [confirming, setConfirming] = useState(false);
  if (node.credentialRevokedAt) {
    return <Badge tone="danger" testId="node-credential-revoked">Credential revoked {new Date(node.credentialRevokedAt).toLocaleString()}</Badge>;
  }
  const copies = node.instances.length;
  return (
    <>
      <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setConfirming(true)} title="Refuse this agent's requests from now on">
        Revoke credential<span className="visually-hidden"> of {node.name}</span>
      </button>
      <ConfirmDialog
        open={confirming}
        testId="revoke-confirm"
        title={`Revoke the credential of ${node.name}?`}
        confirmLabel={`Revoke ${node.name}'s credential`}
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error?.message ?? null}
        onClose={() => {
          setConfirming(false);
          revoke.reset();
        }}
        onConfirm={() => revoke.mutate(node.id, {
          onSuccess: () => {
            setConfirming(false);
            toast(`${node.name}'s agent is refused from now on.`);
          },
        })}
        impact={
          <ul>
            <li>The agent on {node.name} is refused from now on: the node goes silent, then down.</li>
            {copies > 0 && <li>Its {plural(copies, 'copy', 'copies')} are rebuilt on other nodes; its engines are not stopped by this (drain the node first while it still serves).</li>}
            <li>This cannot be undone: to bring the host back, register it again as a new node with a new join token.</li>
          </ul>
        }
      />
    </>
  );
}
