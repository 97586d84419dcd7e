/**
 * Short-lived admin connections to redis-server instances: standalone
 * ioredis clients that fail fast and never reconnect on their own.
 */
import { Redis } from 'ioredis';
import type { EngineCredentials } from '../../domain';

/**
 * TLS of a connection to an instance: the server's certificate verified
 * against `ca` (its name must cover the host connected to), and the client
 * certificate presented when the instance asks for one.
 */
export interface TlsLogin {
  ca: string;
  /** PEM of the client certificate and its key (a cluster that requires client certificates refuses the handshake without). */
  cert?: string;
  key?: string;
}

/** How Strata logs in to an instance: a user and, on a TLS cluster, its TLS. */
export interface AdminLogin {
  username: string;
  password: string;
  tls?: TlsLogin;
}

export interface AdminTarget extends AdminLogin {
  host: string;
  port: number;
}

/**
 * The internal user's login to a cluster's instances: the one place that
 * decides plain text or TLS, and which client certificate Strata presents:
 * the one the control plane issued for its own connections, else (a record
 * kept from before it issued them) the instance's certificate, which is
 * valid for client use too.
 */
export function internalLogin(c: EngineCredentials): AdminLogin {
  return { username: c.internalUser, password: c.internalPassword, ...(c.tls && !c.tls.plainPort ? { tls: tlsLogin(c.tls) } : {}) };
}

/** TLS of a connection to a cluster's instances whatever their own port speaks (an in-place switch reaching a second port). */
export function tlsLogin(t: NonNullable<EngineCredentials['tls']>): TlsLogin {
  const client = t.clientCertificate ?? t.instanceCertificate;
  return { ca: t.caCertificate, ...(client ? { cert: client.certificate, key: client.privateKey } : {}) };
}

/** Connects one admin client; rejects when the instance is unreachable or refuses the login. */
export async function connectAdmin(target: AdminTarget, timeoutMs: number): Promise<Redis> {
  const client = new Redis({
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    ...(target.tls ? { tls: { ...target.tls } } : {}),
    // Named, so Strata's own commands are told apart in CLIENT LIST and the slow log.
    connectionName: 'strata',
    lazyConnect: true,
    connectTimeout: Math.max(50, Math.min(timeoutMs, 2000)),
    commandTimeout: Math.max(50, timeoutMs),
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    reconnectOnError: () => false,
    enableOfflineQueue: false,
    enableReadyCheck: false,
    autoResubscribe: false,
  });
  // Without a listener ioredis prints errors; keep the last one to explain a failed connect.
  let lastError: Error | undefined;
  client.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await client.connect();
    // Commands queue behind the AUTH ioredis sends on connect: a PING proves the login worked.
    await client.ping();
    return client;
  } catch (err) {
    client.disconnect();
    // A refused login closes the connection; report "WRONGPASS ..." rather than "Connection is closed".
    throw lastError ?? err;
  }
}

/** One connection per instance for the duration of an operation. */
export class AdminConnectionPool {
  private readonly clients = new Map<string, Promise<Redis>>();

  constructor(
    private readonly credentials: AdminLogin,
    private readonly commandTimeoutMs: number,
  ) {}

  /** The pooled client for host:port (one per `lane`), reconnecting if the previous one closed or failed. */
  async get(host: string, port: number, lane?: string): Promise<Redis> {
    const key = `${host}:${port}${lane ? `#${lane}` : ''}`;
    const existing = this.clients.get(key);
    if (existing) {
      const client = await existing.catch(() => null);
      if (client && client.status === 'ready') return client;
      client?.disconnect();
    }
    const created = connectAdmin({ host, port, ...this.credentials }, this.commandTimeoutMs);
    this.clients.set(key, created);
    return created;
  }

  /**
   * Closes every connection. One still being opened (an instance that accepted the TCP connection but does not answer,
   * e.g. frozen) is closed when its attempt ends, without holding the caller until then.
   */
  async closeAll(): Promise<void> {
    const pending = [...this.clients.values()];
    this.clients.clear();
    for (const p of pending) void p.then((c) => c.disconnect(), () => {});
    // Those already open close now (their promises settled: the callbacks above run in this microtask turn).
    await Promise.resolve();
  }
}

export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));
