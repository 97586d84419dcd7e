import type { UseQueryResult } from '@tanstack/react-query';
import type { BackupResponse } from '@strata/api';
import { formatBytes, formatDateTime, plural } from '../../lib/format';
import { InlineAlert, LoadingState } from '../../components/ui/States';
import { restoreSource } from './restore-prefill';

/** The wizard's first card when it restores: which backup (its cluster, size, keys, when it was taken), or why it cannot be restored. */
export function RestoreSourceCard({ backupId, query, error }: { backupId: string; query: UseQueryResult<BackupResponse>; error: string | null }) {
  const b = query.data?.backup;
  const source = b ? restoreSource(b) : null;
  return (
    <section className="card form-section" aria-labelledby="sec-restore" data-testid="restore-source">
      <h2 id="sec-restore" className="card-title">Restore from a backup</h2>
      {query.isPending ? <LoadingState label="Loading the backup…" />
        : query.isError ? <InlineAlert tone="danger" title="This backup cannot be restored">{query.error.message}</InlineAlert>
        : !source ? <InlineAlert tone="warning" title="This backup cannot be restored">Backup {backupId} is {b?.status}; only a completed backup can be restored.</InlineAlert>
        : (
          <p>
            Restores the backup of <strong>{source.clusterName}</strong> taken {formatDateTime(source.takenAt)}:{' '}
            <span data-testid="restore-size">{formatBytes(source.bytes)}</span>,{' '}
            <span data-testid="restore-keys">{plural(source.keys, 'key')}</span> in {plural(source.shards, 'shard')}. The form starts as that
            cluster was; any shape works (another shard count moves the keys by slot while the cluster is created).
          </p>
        )}
      {error && <InlineAlert tone="danger" title="The backup was refused">{error}</InlineAlert>}
    </section>
  );
}
