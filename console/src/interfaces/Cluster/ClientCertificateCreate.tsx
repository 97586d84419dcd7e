import { useState } from 'react';
import { useClientCertificateCreateMutation } from '../../data/client-certificates/client-certificate-create-mutation';
import { ErrorState } from '../../components/ui/States';
import { CLIENT_CERT_FILE, CLIENT_KEY_FILE } from './snippets';

const pemHref = (pem: string) => `data:application/x-pem-file;charset=utf-8,${encodeURIComponent(pem)}`;

/**
 * "Create client certificate": issues one signed by the cluster's CA and
 * offers the certificate and its key for download, once (Strata keeps no key).
 */
export function ClientCertificateCreate({ clusterId }: { clusterId: string }) {
  const [name, setName] = useState('app');
  const create = useClientCertificateCreateMutation(clusterId);
  const issued = create.data;
  return (
    <div className="client-certificate" data-testid="client-certificate">
      <form
        className="secret-row"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name: name.trim() });
        }}
      >
        <label className="small">
          Name{' '}
          <input className="input" style={{ width: 'auto', display: 'inline-block' }} value={name} onChange={(e) => setName(e.target.value)} aria-label="Client certificate name" />
        </label>
        <button type="submit" className="btn btn-secondary btn-sm" disabled={create.isPending} data-testid="create-client-certificate">
          Create client certificate
        </button>
      </form>
      {create.isError && <ErrorState error={create.error} title="Could not create the client certificate" />}
      {issued && (
        <div className="secret-row" role="status">
          <span className="small">
            Certificate <code>{issued.clientCertificate.name}</code> (serial <code>{issued.clientCertificate.serialNumber}</code>, valid until{' '}
            {new Date(issued.clientCertificate.expiresAt).toLocaleDateString()}), usable once every instance trusts it (within seconds). Save both files now: the key is shown only once.
          </span>
          <a className="btn btn-secondary btn-sm" href={pemHref(issued.certificate)} download={CLIENT_CERT_FILE} data-testid="download-client-certificate">
            Download {CLIENT_CERT_FILE}
          </a>
          <a className="btn btn-secondary btn-sm" href={pemHref(issued.privateKey)} download={CLIENT_KEY_FILE} data-testid="download-client-key">
            Download {CLIENT_KEY_FILE}
          </a>
        </div>
      )}
    </div>
  );
}
