/**
 * TLS of one instance: which files hold its certificate, key and CA, and the
 * redis.conf directives that serve TLS only on the client port and speak it
 * on replication and the cluster bus. Clients are not asked for a
 * certificate (`tls-auth-clients no`): they authenticate with a password
 * and verify the server against the cluster's CA.
 */

/** File names in the instance's directory (the engine's working directory), written 0600 by the agent. */
export const TLS_FILES = { certFile: 'tls/instance.crt', keyFile: 'tls/instance.key', caFile: 'tls/ca.crt' } as const;
export type TlsFiles = { certFile: string; keyFile: string; caFile: string };

/** [name, value] pairs beside `port 0` (no plain-text port); the cluster bus follows tls-port (+10000). */
export function tlsSettings(port: number, files: TlsFiles = TLS_FILES): readonly (readonly [string, string])[] {
  return [
    ['tls-port', String(port)],
    ['tls-cert-file', files.certFile],
    ['tls-key-file', files.keyFile],
    ['tls-ca-cert-file', files.caFile],
    ['tls-auth-clients', 'no'],
    ['tls-replication', 'yes'],
    ['tls-cluster', 'yes'],
  ];
}
