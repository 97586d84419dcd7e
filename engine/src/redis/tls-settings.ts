/**
 * TLS of one instance: which files hold its certificate, key and CA, and the
 * redis.conf directives that serve TLS only on the client port and speak it
 * on replication and the cluster bus. Clients authenticate with a password
 * and verify the server against the cluster's CA; a cluster that requires
 * client certificates also has every client present one signed by that CA
 * (`tls-auth-clients yes`), or verifies one when a client presents it
 * (`tls-auth-clients optional`). The instance's own certificate, valid for client
 * use too, is what it presents on replication, the cluster bus and MIGRATE.
 */
import type { TlsClientAuth } from '../domain';

/** File names in the instance's directory (the engine's working directory), written 0600 by the agent. */
export const TLS_FILES = { certFile: 'tls/instance.crt', keyFile: 'tls/instance.key', caFile: 'tls/ca.crt' } as const;
export type TlsFiles = { certFile: string; keyFile: string; caFile: string };

const TLS_AUTH_CLIENTS: Record<TlsClientAuth, string> = { none: 'no', optional: 'optional', required: 'yes' };

/**
 * Whether clients present a certificate signed by a CA the instance trusts:
 * never asked (none), verified when presented (optional: one without is
 * accepted on its password alone), or demanded (required). Redis reloads it
 * on CONFIG SET (new connections follow; open ones stay).
 */
export function clientAuthSettings(mode: TlsClientAuth): readonly (readonly [string, string])[] {
  return [['tls-auth-clients', TLS_AUTH_CLIENTS[mode]]];
}

/** [name, value] pairs beside `port 0` (no plain-text port); the cluster bus follows tls-port (+10000). */
export function tlsSettings(port: number, files: TlsFiles = TLS_FILES, clientAuth: TlsClientAuth = 'none'): readonly (readonly [string, string])[] {
  return [
    ['tls-port', String(port)],
    ['tls-cert-file', files.certFile],
    ['tls-key-file', files.keyFile],
    ['tls-ca-cert-file', files.caFile],
    ...clientAuthSettings(clientAuth),
    ['tls-replication', 'yes'],
    ['tls-cluster', 'yes'],
  ];
}
