import type { Cluster, TlsClientAuth, TopologyPlan } from '@strata/api';
import { formatMemoryMb, plural } from '../../../lib/format';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { CLIENT_AUTH_OPTIONS, DURABILITY_OPTIONS, FENCING_OPTIONS, clientAuthWarning } from '../../ClusterCreate/options';

const FIELD_LABELS: Record<string, string> = {
  shards: 'Shards',
  replicasPerShard: 'Replicas per shard',
  memoryMbPerShard: 'Memory per shard',
  durability: 'Durability',
  evictionPolicy: 'Eviction policy',
  fencing: 'Write fencing',
  tlsClientAuth: 'Client certificates',
  migrationPriority: 'Migration priority',
};

/** A changed value as the form shows it: "64 GB", "AOF, every second". */
export function changeValue(field: string, v: unknown): string {
  if (field === 'memoryMbPerShard' && typeof v === 'number') return formatMemoryMb(v);
  if (field === 'durability' && typeof v === 'string' && v in DURABILITY_OPTIONS) return DURABILITY_OPTIONS[v as keyof typeof DURABILITY_OPTIONS].title;
  if (field === 'fencing' && typeof v === 'string' && v in FENCING_OPTIONS) return FENCING_OPTIONS[v as keyof typeof FENCING_OPTIONS].title;
  if (field === 'tlsClientAuth' && typeof v === 'string' && v in CLIENT_AUTH_OPTIONS) return CLIENT_AUTH_OPTIONS[v as TlsClientAuth].title;
  return String(v);
}

export function changeLabel(field: string): string {
  return FIELD_LABELS[field] ?? field;
}

/** Asks before a previewed change is applied, saying what it does to the running cluster. */
export function ApplyConfirm({ open, cluster, plan, pending, error, onClose, onConfirm }: {
  open: boolean; cluster: Cluster; plan: TopologyPlan; pending: boolean; error: string | null; onClose: () => void; onConfirm: () => void;
}) {
  const added = plan.addInstances.length;
  const removed = plan.removeInstances.length;
  const settings = plan.changes.filter((c) => ['memoryMbPerShard', 'durability', 'evictionPolicy', 'fencing', 'tlsClientAuth'].includes(c.field));
  const clientAuth = plan.changes.find((c) => c.field === 'tlsClientAuth');
  const refusal = clientAuth ? clientAuthWarning(clientAuth.from as TlsClientAuth, clientAuth.to as TlsClientAuth) : null;
  return (
    <ConfirmDialog
      open={open}
      testId="apply-confirm"
      title={`Apply this change to ${cluster.name}?`}
      tone="primary"
      confirmLabel="Apply the change"
      pendingLabel="Applying…"
      pending={pending}
      error={error}
      onClose={onClose}
      onConfirm={onConfirm}
      impact={
        <>
          <p>{plan.changes.map((c) => `${changeLabel(c.field)}: ${changeValue(c.field, c.from)} → ${changeValue(c.field, c.to)}`).join('; ')}.</p>
          <ul>
            {plan.totals.slots > 0 && (
              <li>
                {plan.totals.slots.toLocaleString()} slots (about {plan.totals.keys.toLocaleString()} keys) move between shards with live migration: clients keep
                working, a few requests are redirected, and the shards involved use more CPU while it runs.
              </li>
            )}
            {added > 0 && <li>{plural(added, 'instance')} start{added === 1 ? 's' : ''} on the nodes and join the cluster.</li>}
            {removed > 0 && <li>{plural(removed, 'instance')} {removed === 1 ? 'is' : 'are'} stopped and removed once {removed === 1 ? 'it holds' : 'they hold'} no slots.</li>}
            {settings.length > 0 && <li>{settings.map((c) => changeLabel(c.field)).join(', ')} change{settings.length === 1 ? 's' : ''} on every instance in place, without a restart.</li>}
            {refusal && <li className="warning-text" data-testid="apply-client-auth-warning"><strong>{refusal}</strong></li>}
            <li>{plan.online ? 'No downtime. You can pause or cancel while it runs.' : 'This change needs downtime.'}</li>
          </ul>
        </>
      }
    />
  );
}
