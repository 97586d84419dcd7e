import { useState } from 'react';
import type { ClientCertificate } from '@strata/api';
import { useClientCertificatesQuery } from '../../data/client-certificates/client-certificates-query';
import { useClientCertificateRevokeMutation } from '../../data/client-certificates/client-certificate-revoke-mutation';
import { isApiError } from '../../data/fetcher';
import { formatDateTime } from '../../lib/format';
import { Badge } from '../../components/ui/Badge';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { ErrorState } from '../../components/ui/States';

function status(c: ClientCertificate) {
  if (c.revokedAt) return c.applied ? <Badge tone="danger">revoked</Badge> : <Badge tone="warning">revoking</Badge>;
  if (Date.parse(c.expiresAt) <= Date.now()) return <Badge tone="neutral">expired</Badge>;
  return c.applied ? <Badge tone="success">active</Badge> : <Badge tone="warning">applying</Badge>;
}

/** The cluster's client certificates (revoked ones included) with Revoke for each live, revocable one. */
export function ClientCertificateList({ clusterId }: { clusterId: string }) {
  const list = useClientCertificatesQuery(clusterId);
  const [revoking, setRevoking] = useState<ClientCertificate | null>(null);
  if (list.isError) return <ErrorState error={list.error} title="Could not load the client certificates" />;
  const items = list.data?.items ?? [];
  if (!items.length) return null;
  return (
    <>
      <table className="table table-cards" aria-label="Client certificates" aria-busy={list.isPending}>
        <thead>
          <tr><th scope="col">Name</th><th scope="col">Serial</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          {items.map((c) => (
            <tr key={c.id} data-testid={`client-certificate-${c.id}`}>
              <td data-label="Name"><code>{c.name}</code></td>
              <td data-label="Serial"><code className="small">{c.serialNumber}</code></td>
              <td data-label="Expires">{formatDateTime(c.expiresAt)}</td>
              <td data-label="Status">{status(c)}</td>
              <td data-label="Actions">
                {c.revocable && !c.revokedAt && (
                  <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setRevoking(c)}>
                    Revoke<span className="visually-hidden"> {c.name}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <RevokeDialog clusterId={clusterId} certificate={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

function RevokeDialog({ clusterId, certificate, onClose }: { clusterId: string; certificate: ClientCertificate | null; onClose: () => void }) {
  const revoke = useClientCertificateRevokeMutation(clusterId);
  return (
    <ConfirmDialog
      open={!!certificate}
      title={`Revoke client certificate ${certificate?.name ?? ''}?`}
      impact={<p>Within seconds every instance refuses <code>{certificate?.name}</code> at the TLS handshake; connections already open stay until they close. Other certificates keep working.</p>}
      confirmLabel="Revoke certificate"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.isError ? (isApiError(revoke.error) ? revoke.error.summary : 'Could not revoke the certificate.') : null}
      onConfirm={() => certificate && revoke.mutate(certificate.id, { onSuccess: () => { revoke.reset(); onClose(); } })}
      onClose={() => { revoke.reset(); onClose(); }}
      testId="revoke-client-certificate"
    />
  );
}
