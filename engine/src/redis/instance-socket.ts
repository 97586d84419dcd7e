/**
 * A raw socket to an instance, for the connections that speak RESP by hand
 * (bulk restores, replication-protocol snapshots): plain TCP, or TLS with
 * the server's certificate verified against the cluster's CA and the
 * client certificate presented when the login says so (the same rule as
 * connectAdmin's ioredis clients).
 */
import net from 'node:net';
import tls from 'node:tls';
import type { TlsLogin } from './admin/admin-connection';

export interface InstanceSocket {
  socket: net.Socket;
  /** The event after which the socket can carry commands ('secureConnect' over TLS). */
  readyEvent: 'connect' | 'secureConnect';
}

export function openInstanceSocket(host: string, port: number, tlsLogin?: TlsLogin): InstanceSocket {
  if (!tlsLogin) return { socket: net.createConnection({ host, port }), readyEvent: 'connect' };
  const socket = tls.connect({ host, port, ...tlsLogin, ...(net.isIP(host) ? {} : { servername: host }) });
  return { socket, readyEvent: 'secureConnect' };
}
