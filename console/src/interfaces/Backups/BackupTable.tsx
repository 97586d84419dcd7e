import type { Backup } from '@strata/api';
import { formatAgo, formatBytes, formatDateTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { restorePath } from '../ClusterCreate/restore-prefill';
import { useNow } from '../../lib/hooks';
import { Badge, type Tone } from '../../components/ui/Badge';
import { ProgressBar } from '../../components/ui/ProgressBar';

const STATUS_TONE: Record<Backup['status'], Tone> = { running: 'info', completed: 'success', failed: 'danger' };

/** Where a backup comes from, as the organization's list shows it. */
function Origin({ b }: { b: Backup }) {
  if (b.trigger === 'upload') return <span>{b.clusterName} <span className="muted">(uploaded RDB)</span></span>;
  if (b.trigger === 'import') return <span>{b.clusterName} <span className="muted">(imported from {b.importedFrom})</span></span>;
  if (b.clusterDeleted) return <span>{b.clusterName} <Badge tone="neutral" testId="backup-cluster-deleted">cluster deleted</Badge></span>;
  return <Link to={`/clusters/${b.clusterId}/backups`}>{b.clusterName}</Link>;
}

/** Backups with their progress, size, keys, duration, skew and retention; `showCluster`: a column naming where each comes from. */
export function BackupTable({ items, showCluster = false }: { items: Backup[]; showCluster?: boolean }) {
  const now = useNow(5000);
  return (
    <table className="table table-cards" data-testid="backup-list" aria-label="Backups">
      <thead>
        <tr>
          <th scope="col">Started</th>
          {showCluster && <th scope="col">Cluster</th>}
          <th scope="col">Status</th>
          <th scope="col">Size</th>
          <th scope="col">Keys</th>
          <th scope="col">Duration</th>
          <th scope="col">Skew</th>
          <th scope="col">Kept until</th>
          <th scope="col"><span className="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        {items.map((b) => {
          const m = b.manifest;
          const bytes = m ? m.shards.reduce((n, s) => n + s.bytes, 0) : b.shards.reduce((n, s) => n + (s.bytes ?? 0), 0);
          return (
            <tr key={b.id} data-testid="backup-row">
              <td title={formatDateTime(b.createdAt)}>{formatAgo(b.createdAt, now)}{b.trigger === 'schedule' ? ' (scheduled)' : ''}{b.consistent ? ' · consistent' : ''}</td>
              {showCluster && <td data-label="Cluster" data-testid="backup-origin"><Origin b={b} /></td>}
              <td data-label="Status">
                <Badge tone={STATUS_TONE[b.status]} pulse={b.status === 'running'} testId="backup-status">{b.status}</Badge>
                {b.status === 'running' && (
                  <div className="stack">
                    {b.shards.map((s) => (
                      <ProgressBar key={s.shard} label={`Shard ${s.shard + 1} upload`} value={s.state === 'completed' ? 1 : s.totalBytes ? (s.bytes ?? 0) / s.totalBytes : 0} />
                    ))}
                  </div>
                )}
                {b.error && <p className="field-error">{b.error.message}</p>}
              </td>
              <td data-label="Size" data-testid="backup-size">{formatBytes(bytes)}</td>
              <td data-label="Keys" data-testid="backup-keys">{m ? m.shards.reduce((n, s) => n + s.keys, 0).toLocaleString('en-US') : '—'}</td>
              <td data-label="Duration">{m ? `${((Date.parse(m.finishedAt) - Date.parse(m.startedAt)) / 1000).toFixed(1)} s` : '—'}</td>
              <td data-label="Skew">{m ? `${m.skewMs} ms${m.writePauseMs !== null ? ` (pause ${m.writePauseMs} ms)` : ''}` : '—'}</td>
              <td data-label="Kept until">{b.expiresAt ? formatDateTime(b.expiresAt) : 'until deleted'}</td>
              <td data-label="Restore">
                {b.status === 'completed' && (
                  <Link to={restorePath(b.id)} className="btn btn-secondary btn-sm" aria-label={`Restore the backup of ${b.clusterName} taken ${formatDateTime(b.createdAt)} into a new cluster`}>Restore</Link>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
