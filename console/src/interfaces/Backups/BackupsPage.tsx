import { useState, type FormEvent } from 'react';
import { useOrgBackupsQuery } from '../../data/backups/org-backups-query';
import { useBackupUploadMutation } from '../../data/backups/backup-upload-mutation';
import { isApiError } from '../../data/fetcher';
import { formatBytes } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { toast } from '../../lib/toast';
import { PageHeader } from '../../components/layout/PageHeader';
import { Field } from '../../components/ui/Field';
import { ProgressBar } from '../../components/ui/ProgressBar';
import { EmptyState, ErrorState, InlineAlert, LoadingState } from '../../components/ui/States';
import { BackupTable } from './BackupTable';

type Show = 'all' | 'deleted' | 'external';

/**
 * The organization's backups: every cluster's, those of deleted clusters (kept until their
 * retention ends, restorable here since their cluster page is gone), imports and uploaded RDB
 * files; and an RDB file upload with its progress.
 */
export default function BackupsPage() {
  useDocumentTitle('Backups');
  const [show, setShow] = useState<Show>('all');
  const list = useOrgBackupsQuery(show === 'deleted' ? { clusterDeleted: 'true' } : {});
  const items = (list.data?.items ?? []).filter((b) => show !== 'external' || b.trigger === 'import' || b.trigger === 'upload');
  return (
    <>
      <PageHeader title="Backups" description="Every backup of your organization: of your clusters (deleted ones too, until their retention ends), imports and uploaded RDB files. Restore any completed one into a new cluster." />
      <div className="stack-lg">
        <UploadCard />
        <section className="card" style={{ padding: 20 }} aria-labelledby="org-backups-title">
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'end', gap: 12, flexWrap: 'wrap' }}>
            <h2 id="org-backups-title">Backups</h2>
            <Field label="Show">
              <select value={show} onChange={(e) => setShow(e.target.value as Show)} data-testid="backups-filter">
                <option value="all">all backups</option>
                <option value="deleted">of deleted clusters</option>
                <option value="external">imports and uploads</option>
              </select>
            </Field>
          </div>
          {list.isPending ? <LoadingState label="Loading backups…" />
            : list.isError ? <ErrorState error={list.error} title="Could not load the backups" onRetry={() => void list.refetch()} />
            : items.length === 0 ? <EmptyState icon="clusters" title="No backups here">Back up a cluster from its Backups tab, or upload an RDB file above.</EmptyState>
            : <BackupTable items={items} showCluster />}
        </section>
      </div>
    </>
  );
}

/** Upload an RDB file (e.g. a dump.rdb): streamed to the backup storage, checked whole, then restorable. */
function UploadCard() {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  // Bumped after an upload: the file input starts empty again.
  const [picker, setPicker] = useState(0);
  const upload = useBackupUploadMutation((sent, total) => setProgress({ sent, total }));
  const error = upload.error && isApiError(upload.error) ? upload.error : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setProgress({ sent: 0, total: file.size });
    upload.mutate({ file, name: name.trim() || file.name }, {
      onSuccess: (r) => {
        toast(`Uploaded ${r.backup.clusterName}: ${(r.backup.manifest?.shards[0]?.keys ?? 0).toLocaleString('en-US')} keys`);
        setFile(null);
        setName('');
        setPicker((n) => n + 1);
      },
      onSettled: () => setProgress(null),
    });
  };

  return (
    <section className="card" style={{ padding: 20 }} aria-labelledby="upload-title">
      <h2 id="upload-title">Upload RDB</h2>
      <p className="muted">An RDB file saved by Redis (SAVE, BGSAVE or redis-cli --rdb), up to RDB version 10 (Redis 7.0). It becomes a backup with one shard, restorable into a cluster of any shape.</p>
      <form onSubmit={submit} className="stack" data-testid="upload-form" noValidate>
        <Field label="RDB file">
          <input key={picker} type="file" accept=".rdb,application/octet-stream" onChange={(e) => setFile(e.target.files?.[0] ?? null)} disabled={upload.isPending} />
        </Field>
        <Field label="Name" hint="shown as the backup's cluster name (default: the file's name)">
          <input type="text" value={name} maxLength={100} placeholder={file?.name ?? ''} onChange={(e) => setName(e.target.value)} disabled={upload.isPending} />
        </Field>
        {progress && (
          <div className="stack" data-testid="upload-progress">
            <ProgressBar label="Upload progress" value={progress.total ? progress.sent / progress.total : 0} />
            <span className="muted">{formatBytes(progress.sent)} of {formatBytes(progress.total)}{progress.sent >= progress.total ? ' — checking the file…' : ''}</span>
          </div>
        )}
        {upload.isError && (
          <InlineAlert tone="danger" title="The file was not stored">{error?.summary ?? upload.error.message}</InlineAlert>
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={!file || upload.isPending}>{upload.isPending ? 'Uploading…' : 'Upload RDB'}</button>
        </div>
      </form>
    </section>
  );
}
