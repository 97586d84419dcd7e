import { useState } from 'react';
import type { Cluster, TlsMode } from '@strata/api';
import { useClusterUpdateMutation } from '../../../data/clusters/cluster-update-mutation';
import { isApiError } from '../../../data/fetcher';
import { toast } from '../../../lib/toast';
import { Field } from '../../../components/ui/Field';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { TLS_OPTIONS, tlsSwitchBlocked, tlsSwitchImpact } from './tls-switch';

/** TLS turned on or off in place (valkey-8), asking first and saying what each stage serves; on engine 7, why it cannot. */
export function TlsPanel({ cluster, busy }: { cluster: Cluster; busy: boolean }) {
  const current = cluster.spec.tls;
  const [to, setTo] = useState<TlsMode>(current);
  const [asking, setAsking] = useState(false);
  const update = useClusterUpdateMutation(cluster.id);
  const blocked = tlsSwitchBlocked(cluster);
  const close = () => {
    setAsking(false);
    update.reset();
  };
  return (
    <section className="card settings-card" aria-labelledby="tls-title" data-testid="tls-panel">
      <h2 id="tls-title" className="card-title">TLS</h2>
      <Field label="TLS" hint={`${TLS_OPTIONS[to].description} Now ${TLS_OPTIONS[current].title.toLowerCase()}.`}>
        <select className="input" name="tls" value={to} disabled={!!blocked} onChange={(e) => setTo(e.target.value as TlsMode)}>
          {(Object.keys(TLS_OPTIONS) as TlsMode[]).map((m) => <option key={m} value={m}>{TLS_OPTIONS[m].title}</option>)}
        </select>
      </Field>
      {blocked && <p className="muted small" data-testid="tls-switch-blocked">{blocked}</p>}
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" disabled={!!blocked || busy || to === current || !['ready', 'degraded'].includes(cluster.status.phase)} onClick={() => setAsking(true)}>
          Switch TLS
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        testId="tls-switch-confirm"
        title={`TLS on ${cluster.name}: ${TLS_OPTIONS[current].title.toLowerCase()} → ${TLS_OPTIONS[to].title.toLowerCase()}?`}
        tone={to === 'preferred' ? 'primary' : 'danger'}
        confirmLabel="Switch TLS"
        pendingLabel="Starting…"
        pending={update.isPending}
        error={update.error ? (isApiError(update.error) ? update.error.summary : String(update.error)) : null}
        onClose={close}
        onConfirm={() => update.mutate({ tls: to }, {
          onSuccess: () => {
            close();
            toast('TLS switch started: its progress shows at the top of the cluster page.');
          },
        })}
        impact={<ul>{tlsSwitchImpact(current, to).map((line) => <li key={line}>{line}</li>)}</ul>}
      />
    </section>
  );
}
