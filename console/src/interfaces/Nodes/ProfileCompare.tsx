import { useDiskProfileQuery } from '../../data/disk-profiles/disk-profile-query';
import { ProfileResultView } from './ProfileResultView';

/** Two disk profiles (two nodes, or two runs of one) side by side. */
export function ProfileCompare({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  const a = useDiskProfileQuery(ids[0]);
  const b = useDiskProfileQuery(ids[1]);
  return (
    <section className="card disk-profile" aria-label="Disk profiles side by side" data-testid="profile-compare">
      <div className="disk-profile-head">
        <h2 className="card-title">Side by side</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onClear}>Clear</button>
      </div>
      <div className="profile-compare">
        {[a.data, b.data].map((p, i) => (
          <div key={ids[i]}>
            {p ? (
              <>
                <strong>{p.nodeName} · {p.preset ?? 'custom'}</strong>
                <div className="small muted">{new Date(p.createdAt).toLocaleString()}</div>
                <ProfileResultView profile={p} />
              </>
            ) : <p className="muted">Tick a second completed run to compare.</p>}
          </div>
        ))}
      </div>
    </section>
  );
}
