import { useState } from 'react';
import { DISK_PROFILE_PRESET_INFO, type DiskProfilePreset, type Node } from '@strata/api';
import { useDiskProfilesQuery } from '../../data/disk-profiles/disk-profiles-query';
import { useDiskProfileQuery } from '../../data/disk-profiles/disk-profile-query';
import { useDiskProfileStartMutation } from '../../data/disk-profiles/disk-profile-start-mutation';
import { useDiskProfileCancelMutation } from '../../data/disk-profiles/disk-profile-cancel-mutation';
import { useDiskProfileStream } from '../../data/disk-profiles/disk-profile-stream';
import { isApiError } from '../../data/fetcher';
import { ProgressBar } from '../../components/ui/ProgressBar';
import { formatDateTime } from '../../lib/format';
import { ProfileResultView } from './ProfileResultView';
import { formatUs } from './disk-profile-format';
import './disk-profile.css';

const MiB = 1024 * 1024;

/**
 * "Profile this disk" for one node (platform admins): a preset run by the node's agent with fio on its
 * data volume, live progress with the load of the clusters beside it, the results with charts, and the
 * node's earlier runs (tick two, here or on another node, to see them side by side).
 */
export function DiskProfilePanel({ node, compare, onCompare, onClose }: {
  node: Node; compare: string[]; onCompare: (id: string) => void; onClose: () => void;
}) {
  const [preset, setPreset] = useState<DiskProfilePreset>('rebench-default');
  const info = DISK_PROFILE_PRESET_INFO.find((p) => p.id === preset)!;
  const [fileMiB, setFileMiB] = useState(String(info.fileSize / MiB));
  const [seconds, setSeconds] = useState(String(info.durationSec));
  const [shown, setShown] = useState<string | undefined>();
  const list = useDiskProfilesQuery(node.id);
  const start = useDiskProfileStartMutation(node.id);
  const cancel = useDiskProfileCancelMutation();
  const current = shown ?? list.data?.items[0]?.id;
  const profile = useDiskProfileQuery(current);
  const p = profile.data;
  useDiskProfileStream(p?.id, p?.status === 'running');
  const busy = start.error && isApiError(start.error) && start.error.code === 'node_busy';

  const run = (force = false) => start.mutate(
    { preset, fileSize: Math.round(Number(fileMiB) * MiB), durationSec: Math.round(Number(seconds)), force },
    { onSuccess: (x) => setShown(x.id) },
  );
  const pick = (id: DiskProfilePreset) => {
    const next = DISK_PROFILE_PRESET_INFO.find((x) => x.id === id)!;
    setPreset(id);
    setFileMiB(String(next.fileSize / MiB));
    setSeconds(String(next.durationSec));
  };

  return (
    <section className="card disk-profile" aria-label={`Disk profile of ${node.name}`} data-testid="disk-profile-panel">
      <div className="disk-profile-head">
        <h2 className="card-title">Profile the disk of {node.name}</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onClose}>Close</button>
      </div>
      <p className="small muted">fio runs on the node's data volume only, in a file of its own that is removed afterwards. It competes with the clusters on the node for the disk.</p>
      <fieldset className="fieldset">
        <legend className="field-label">Preset</legend>
        <div className="disk-profile-presets">
          {DISK_PROFILE_PRESET_INFO.map((x) => (
            <label key={x.id} className="radio-card">
              <input type="radio" name={`preset-${node.id}`} value={x.id} checked={preset === x.id} onChange={() => pick(x.id)} />
              <span className="radio-card-body">
                <span className="radio-card-title">{x.title}</span>
                <span className="radio-card-text">{x.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="disk-profile-form">
        <label className="field">
          <span className="field-label">Test file (MiB)</span>
          <input className="input" name="fileSizeMiB" inputMode="numeric" value={fileMiB} onChange={(e) => setFileMiB(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Seconds per workload</span>
          <input className="input" name="durationSec" inputMode="numeric" value={seconds} onChange={(e) => setSeconds(e.target.value)} />
        </label>
        <button type="button" className="btn btn-primary" disabled={start.isPending || p?.status === 'running' || node.status !== 'online'} onClick={() => run()}>
          Start profile
        </button>
      </div>
      {start.error && (
        <div className="small" role="alert">
          <p className="danger-text">{isApiError(start.error) ? start.error.summary : (start.error as Error).message}</p>
          {isApiError(start.error) && start.error.fieldErrors.map((f) => <p key={f.field} className="danger-text mono">{f.field}: {f.message}</p>)}
          {busy && <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => run(true)}>Run anyway</button>}
        </div>
      )}
      {p && (
        <div className="disk-profile-run" data-testid="disk-profile-run" data-status={p.status}>
          <div className="disk-profile-run-head">
            <strong>{p.preset ? DISK_PROFILE_PRESET_INFO.find((x) => x.id === p.preset)?.title : 'Custom workloads'}</strong>
            <span className="muted small">{formatDateTime(p.createdAt)} · {p.status}</span>
          </div>
          {p.status === 'running' && (
            <>
              <ProgressBar value={p.progress} label="Profile progress" />
              <div className="small muted">{p.detail}</div>
              {p.clusters.length > 0 && (
                <ul className="small" aria-label="Clusters on the node">
                  {p.clusters.map((c) => (
                    <li key={c.clusterId}>{c.clusterName}: {c.opsPerSec === null ? '—' : `${Math.round(c.opsPerSec)} ops/s`}, p99 {c.latencyP99Us === null ? '—' : formatUs(c.latencyP99Us)}</li>
                  ))}
                </ul>
              )}
              <button type="button" className="btn btn-secondary btn-sm" disabled={cancel.isPending} onClick={() => cancel.mutate(p.id)}>Cancel</button>
            </>
          )}
          <ProfileResultView profile={p} />
        </div>
      )}
      {(list.data?.items.length ?? 0) > 0 && (
        <details className="disk-profile-history">
          <summary>Earlier runs on {node.name} ({list.data!.items.length})</summary>
          <ul>
            {list.data!.items.map((x) => (
              <li key={x.id}>
                <button type="button" className="btn btn-link btn-sm" onClick={() => setShown(x.id)}>
                  {formatDateTime(x.createdAt)} · {x.preset ?? 'custom'} · {x.status}
                </button>
                <label className="small">
                  <input type="checkbox" checked={compare.includes(x.id)} onChange={() => onCompare(x.id)} disabled={x.status !== 'completed' && !compare.includes(x.id)} /> compare
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
