import type { DiskProfile } from '@strata/api';
import { ProfileChart } from './ProfileChart';
import { blockSizePoints, formatBytes, formatUs, fsyncHistogram, profileCsv, profileJson, queueDepthPoints, resultLabel } from './disk-profile-format';

const fmtN = (n: number) => Math.round(n).toLocaleString('en-US');

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A profile's facts, results per workload, charts, durability advice and exports. */
export function ProfileResultView({ profile: p, compact = false }: { profile: DiskProfile; compact?: boolean }) {
  const bs = blockSizePoints(p.results);
  const qd = queueDepthPoints(p.results);
  const hist = fsyncHistogram(p.results);
  return (
    <div className="profile-result" data-testid="profile-result">
      {p.facts && (
        <p className="small muted" data-testid="profile-facts">
          {p.nodeName}: {p.facts.filesystem} on {p.facts.device} ({p.facts.mountOptions}){p.facts.rotational === null ? '' : p.facts.rotational ? ', spinning' : ', solid state'} ·{' '}
          {formatBytes(p.facts.freeBytes)} free of {formatBytes(p.facts.totalBytes)} · {p.facts.kernel} · {p.facts.fioVersion}
        </p>
      )}
      {p.error && <p className="small danger-text" role="alert">{p.error.message}</p>}
      {!compact && (
        <div className="table-scroll">
          <table className="table" aria-label="Profile results">
            <thead>
              <tr><th scope="col">Workload</th><th scope="col">IOPS</th><th scope="col">MB/s</th><th scope="col">p50</th><th scope="col">p99</th><th scope="col">p99.9</th><th scope="col">fsync p99</th></tr>
            </thead>
            <tbody>
              {p.results.map((r) => (
                <tr key={r.index} data-testid="profile-result-row">
                  <td>{resultLabel(r)}{r.error && <div className="cell-sub danger-text">{r.error}</div>}</td>
                  <td className="tabular">{fmtN(r.iops)}</td>
                  <td className="tabular">{r.mbPerSec.toFixed(1)}</td>
                  <td className="tabular">{formatUs(r.latency.p50)}</td>
                  <td className="tabular">{formatUs(r.latency.p99)}</td>
                  <td className="tabular">{formatUs(r.latency.p999)}</td>
                  <td className="tabular">{r.sync ? formatUs(r.sync.latency.p99) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="profile-charts">
        {bs.length > 0 && (
          <>
            <ProfileChart title="IOPS by block size" testId="chart-iops-block-size" kind="bar" series={[{ label: 'IOPS', color: '#3b6fd8' }]} points={bs.map((x) => ({ x: x.x, values: [x.values[0]!] }))} format={fmtN} />
            <ProfileChart title="MB/s by block size" testId="chart-mbps-block-size" kind="bar" series={[{ label: 'MB/s', color: '#1f8a4c' }]} points={bs.map((x) => ({ x: x.x, values: [x.values[1]!] }))} format={(v) => v.toFixed(0)} />
          </>
        )}
        {qd.length > 0 && (
          <ProfileChart title="Latency by queue depth" testId="chart-latency-queue-depth" kind="line"
            series={[{ label: 'p50', color: '#3b6fd8' }, { label: 'p99', color: '#d98a1c' }, { label: 'p99.9', color: '#d93a32' }]} points={qd} format={formatUs} />
        )}
        {hist && (
          <ProfileChart title={`fsync latency (${hist.label})`} testId="chart-fsync-histogram" kind="bar" series={[{ label: 'syncs', color: '#7a4fd8' }]} points={hist.points} format={fmtN} />
        )}
        {!compact && p.results.length > 0 && bs.length === 0 && qd.length === 0 && (
          <ProfileChart title="IOPS by workload" testId="chart-iops-workload" kind="bar" series={[{ label: 'IOPS', color: '#3b6fd8' }]}
            points={p.results.map((r) => ({ x: `#${r.index + 1}`, values: [r.iops] }))} format={fmtN} />
        )}
      </div>
      {p.advice && (
        <dl className="profile-advice" data-testid="profile-advice">
          {p.advice.levels.map((l) => (
            <div key={l.durability}>
              <dt className="mono">{l.durability}</dt>
              <dd>{l.writesPerSec === null ? 'not bounded by this disk' : `~${fmtN(l.writesPerSec)} writes/s`}<div className="cell-sub">{l.summary}</div></dd>
            </div>
          ))}
        </dl>
      )}
      {p.status !== 'running' && (
        <div className="profile-export">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => download(`disk-profile-${p.id}.csv`, 'text/csv', profileCsv(p))}>Export CSV</button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => download(`disk-profile-${p.id}.json`, 'application/json', profileJson(p))}>Export JSON</button>
        </div>
      )}
    </div>
  );
}
