import { useState } from 'react';
import type { ClusterPhase, Connection } from '@strata/api';
import { useClusterConnectionQuery } from '../../data/clusters/cluster-connection-query';
import { CopyButton } from '../../components/ui/CopyButton';
import { Icon } from '../../components/ui/Icon';
import { ErrorState } from '../../components/ui/States';
import { Tabs } from '../../components/ui/Tabs';
import { useDatabaseUsersQuery } from '../../data/database-users/database-users-query';
import { ClientCertificateCreate } from './ClientCertificateCreate';
import { ClientCertificateList } from './ClientCertificateList';
import { CaRotationPanel } from './CaRotationPanel';
import { CA_FILE, CLIENT_CERT_FILE, CLIENT_KEY_FILE, CLIENTS, MASK, asDatabaseUser, buildSnippet, maskUri, type ClientKey } from './snippets';

const CONNECTABLE: Record<ClusterPhase, boolean> = {
  provisioning: false,
  ready: true,
  updating: true,
  degraded: true,
  deleting: false,
  failed: false,
};

export function ConnectionPanel({ clusterId, phase }: { clusterId: string; phase: ClusterPhase }) {
  const enabled = CONNECTABLE[phase];
  const conn = useClusterConnectionQuery(clusterId, { enabled });
  return (
    <section className="card" aria-labelledby="connect-title" data-testid="connection-panel">
      <div className="card-head">
        <h2 id="connect-title" className="card-title">
          Connect
        </h2>
        <span className="muted small">Use a cluster-aware client: it discovers every shard from any seed.</span>
      </div>
      {!enabled ? (
        <p className="muted pad" data-testid="connection-unavailable">
          {phase === 'provisioning'
            ? 'Connection details appear here as soon as the cluster is ready.'
            : phase === 'deleting'
              ? 'This cluster is being deleted.'
              : 'This cluster cannot accept connections.'}
        </p>
      ) : conn.isPending ? (
        <div className="pad" aria-busy="true">
          <span className="skeleton" style={{ width: '60%' }} />
        </div>
      ) : conn.isError ? (
        conn.error.status === 409 ? (
          <p className="muted pad">Connection details appear here as soon as the cluster is ready.</p>
        ) : (
          <ErrorState error={conn.error} title="Could not load connection details" onRetry={() => void conn.refetch()} />
        )
      ) : (
        <ConnectionDetails clusterId={clusterId} phase={phase} conn={conn.data} />
      )}
    </section>
  );
}

function ConnectionDetails({ clusterId, phase, conn }: { clusterId: string; phase: ClusterPhase; conn: Connection }) {
  const [reveal, setReveal] = useState(false);
  const [client, setClient] = useState<ClientKey>('redis-cli');
  const [as, setAs] = useState<string>(conn.username);
  const users = useDatabaseUsersQuery(clusterId).data?.items ?? [];
  // A database user's password was shown once: its snippets carry a placeholder for it.
  const chosen = as !== conn.username && users.some((u) => u.name === as) ? asDatabaseUser(conn, as) : conn;
  const snippet = buildSnippet(client, chosen, reveal || chosen !== conn);
  return (
    <div className="connection">
      <div className="kv-grid">
        <div className="kv">
          <span className="kv-key" id="uri-label">
            Connection URI
          </span>
          <div className="secret-row">
            <code className="secret" data-testid="connection-uri">
              {maskUri(conn.uri, conn.password, reveal)}
            </code>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-pressed={reveal}
              onClick={() => setReveal((r) => !r)}
            >
              <Icon name={reveal ? 'eyeOff' : 'eye'} />
              {reveal ? 'Hide password' : 'Reveal password'}
            </button>
            <CopyButton text={conn.uri} label="Copy connection URI" />
          </div>
        </div>
        <div className="kv kv-inline">
          <div>
            <span className="kv-key">Username</span>
            <div className="secret-row">
              <code className="secret">{conn.username}</code>
              <CopyButton text={conn.username} label="Copy username" compact />
            </div>
          </div>
          <div>
            <span className="kv-key">Password</span>
            <div className="secret-row">
              <code className="secret" data-testid="connection-password">
                {reveal ? conn.password : MASK}
              </code>
              <CopyButton text={conn.password} label="Copy password" compact />
            </div>
          </div>
        </div>
        {conn.tls !== 'required' && conn.tlsUri && (
          <div className="kv" data-testid="tls-preferred">
            <span className="kv-key">TLS</span>
            <div className="secret-row">
              <span className="small">
                Both served while applications move: the URI above is plain text, the TLS one ({conn.tlsUri.split('@')[1]}) verifies the instances against the cluster&apos;s CA.
              </span>
              <CopyButton text={conn.tlsUri} label="Copy TLS URI" />
              <a className="btn btn-secondary btn-sm" href={`/v1/clusters/${clusterId}/ca.pem`} download={CA_FILE} data-testid="download-ca">
                Download CA
              </a>
            </div>
          </div>
        )}
        {conn.tls === 'required' && (
          <div className="kv">
            <span className="kv-key">TLS</span>
            <div className="secret-row">
              <span className="small">
                Required. Clients verify the instances against the cluster&apos;s CA; the snippets read it from <code>{CA_FILE}</code>.
                {(conn.caCertificate?.match(/BEGIN CERTIFICATE/g)?.length ?? 0) > 1 && (
                  <strong data-testid="ca-rotation"> The CA is being rotated: {CA_FILE} holds the new CA and the old one; give it to your clients before the old CA is retired.</strong>
                )}
              </span>
              {/* The API serves the CA as a file (GET /v1/clusters/{id}/ca.pem); the session cookie authorizes the download. */}
              <a className="btn btn-secondary btn-sm" href={`/v1/clusters/${clusterId}/ca.pem`} download={CA_FILE} data-testid="download-ca">
                Download CA
              </a>
            </div>
            <CaRotationPanel clusterId={clusterId} phase={phase} />
            <span className="small" data-testid="client-auth">
              {conn.tlsClientAuth === 'required'
                ? <>Client certificates required: every client also presents a certificate signed by this CA; the snippets read it from <code>{CLIENT_CERT_FILE}</code> and <code>{CLIENT_KEY_FILE}</code>.</>
                : conn.tlsClientAuth === 'optional'
                  ? 'Client certificates optional: a certificate a client presents is verified, and the password alone also works; move clients to certificates, then require them.'
                  : 'Client certificates are not asked for (they can be, on the Settings tab); a certificate created here is ready for when they are.'}
            </span>
            <ClientCertificateCreate clusterId={clusterId} />
            <ClientCertificateList clusterId={clusterId} />
          </div>
        )}
        <div className="kv">
          <span className="kv-key">Seeds (every primary)</span>
          <div className="seeds">
            <ul className="seed-list" aria-label="Seeds">
              {conn.seeds.map((s) => (
                <li key={s}>
                  <code>{s}</code>
                </li>
              ))}
            </ul>
            <CopyButton text={conn.seeds.join(',')} label="Copy seeds" compact />
          </div>
        </div>
      </div>
      {users.length > 0 && (
        <label className="field-label" style={{ display: 'block', marginTop: 12 }}>
          Connect as{' '}
          <select className="input" style={{ width: 'auto', display: 'inline-block' }} value={chosen.username} onChange={(e) => setAs(e.target.value)} data-testid="snippet-user">
            <option value={conn.username}>{conn.username} (the cluster&apos;s own user)</option>
            {users.map((u) => <option key={u.name} value={u.name}>{u.name}</option>)}
          </select>
        </label>
      )}
      <Tabs label="Client snippets" tabs={CLIENTS} selected={client} onSelect={setClient}>
        <div className="code-block">
          <div className="code-block-bar">
            <span className="muted small">{CLIENTS.find((c) => c.key === client)?.language}</span>
            <CopyButton text={buildSnippet(client, chosen, true)} label={`Copy ${client} snippet`} />
          </div>
          <pre tabIndex={0} role="region" aria-label={`${client} snippet`}>
            <code>{snippet}</code>
          </pre>
        </div>
      </Tabs>
    </div>
  );
}
