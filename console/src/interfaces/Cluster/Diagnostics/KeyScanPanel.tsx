import { hotKeysAvailability, shardLabel, type Cluster, type KeyScan } from '@strata/api';
import { useKeyScansQuery } from '../../../data/diagnostics/key-scans-query';
import { useKeyScanStartMutation } from '../../../data/diagnostics/key-scan-start-mutation';
import { isApiError } from '../../../data/fetcher';
import { useNow } from '../../../lib/hooks';
import { plural } from '../../../lib/format';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { ErrorState, InlineAlert, LoadingState } from '../../../components/ui/States';
import { TimeAgo } from '../../../components/ui/TimeAgo';
import { formatBytes } from '../Monitoring/format';

/**
 * Big keys per shard (MEMORY USAGE of every key SCAN visits, throttled and
 * bounded in time) and, under an LFU eviction policy, hot keys (OBJECT FREQ);
 * otherwise it says why there are none.
 */
export function KeyScanPanel({ cluster }: { cluster: Cluster }) {
  const scans = useKeyScansQuery(cluster.id);
  const start = useKeyScanStartMutation(cluster.id);
  const now = useNow(10_000);
  const latest = scans.data?.items[0];
  const running = latest?.status === 'running';
  const hot = hotKeysAvailability(cluster.spec.evictionPolicy);
  const canScan = cluster.status.phase === 'ready' || cluster.status.phase === 'degraded';
  return (
    <section className="card" aria-labelledby="keyscan-title" data-testid="keyscan-panel">
      <div className="diag-head">
        <div>
          <h2 id="keyscan-title" className="card-title">Big and hot keys</h2>
          <p className="muted small">
            Scans each shard&apos;s primary in small batches with pauses in between (at most a minute per shard), so your application hardly notices.
          </p>
        </div>
        <div className="diag-actions">
          <button type="button" className="btn btn-primary" disabled={running || start.isPending || !canScan} onClick={() => start.mutate({})}>
            {running ? 'Scanning…' : start.isPending ? 'Starting…' : 'Scan keys'}
          </button>
        </div>
      </div>
      <div className="diag-body">
        {!hot.available && <p className="muted small" data-testid="hot-keys-unavailable">No hot keys: {hot.reason}.</p>}
        {start.isError && <InlineAlert tone="danger" title="The scan did not start">{isApiError(start.error) ? start.error.summary : String(start.error)}</InlineAlert>}
        {scans.isPending ? <LoadingState label="Loading scans…" />
          : scans.isError ? <ErrorState error={scans.error} title="Could not load key scans" onRetry={() => void scans.refetch()} />
            : !latest ? <p className="muted small" data-testid="keyscan-none">No scan yet.</p>
              : <ScanResult scan={latest} now={now} />}
      </div>
    </section>
  );
}

function ScanResult({ scan, now }: { scan: KeyScan; now: number }) {
  const progress = scan.shards.reduce((s, x) => s + x.progress, 0) / Math.max(1, scan.shards.length);
  return (
    <div className="stack" data-testid="keyscan-result" data-status={scan.status}>
      <p className="muted small">
        {scan.status === 'running' ? 'Scanning' : scan.status === 'completed' ? 'Scanned' : 'Scan failed'} <TimeAgo at={scan.createdAt} now={now} /> ·
        top {scan.params.topN} per shard · batches of {scan.params.batchSize}, {scan.params.pauseMs} ms pauses
      </p>
      {scan.status === 'running' && <ProgressBar value={progress} label="Key scan progress" tone="info" />}
      <div className="diag-shards">
        {scan.shards.map((s) => (
          <div key={s.shard} className="diag-shard" data-testid="keyscan-shard">
            <h4>{shardLabel(s.shard)} <span className="muted small mono">{s.address}</span></h4>
            {s.error && <p className="field-error">{s.error}</p>}
            {!s.result ? <p className="muted small">{s.detail ?? s.state}</p> : (
              <>
                <p className="muted small">
                  {plural(s.result.keysScanned, 'key')} of {s.result.keysInShard} scanned in {(s.result.elapsedMs / 1000).toFixed(1)} s
                  {s.result.complete ? '' : ' (the time budget ran out first)'}
                </p>
                <strong className="small">Biggest</strong>
                <ol className="diag-keys" aria-label={`${shardLabel(s.shard)} biggest keys`}>
                  {s.result.bigKeys.length === 0 ? <li className="muted">none</li> : s.result.bigKeys.map((k) => (
                    <li key={k.key} data-testid="big-key"><span className="mono">{k.key}</span><span className="tabular">{k.type} · {formatBytes(k.bytes)}</span></li>
                  ))}
                </ol>
                {s.result.hotKeys && (
                  <>
                    <strong className="small">Hottest (LFU counter)</strong>
                    <ol className="diag-keys" aria-label={`${shardLabel(s.shard)} hottest keys`}>
                      {s.result.hotKeys.length === 0 ? <li className="muted">none</li> : s.result.hotKeys.map((k) => (
                        <li key={k.key} data-testid="hot-key"><span className="mono">{k.key}</span><span className="tabular">{k.type} · {k.freq}</span></li>
                      ))}
                    </ol>
                  </>
                )}
              </>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
