import net from 'node:net';
import type { Logger } from 'pino';
import type { AgentEndpoint, AgentEndpoints } from '@strata/api';

export interface EndpointServerDeps {
  /** Reads the endpoints to serve (GET /v1/agent/endpoints). */
  fetch: () => Promise<AgentEndpoints>;
  log: Logger;
  /** Address to listen on; defaults to the endpoint host the control plane names. */
  bindAddress?: string;
  /** How often the endpoint list is refreshed. */
  refreshMs?: number;
  /** How often an endpoint held by another agent (address in use) is tried again. */
  retryBindMs?: number;
  /** How long a connection to one target may take before the next is tried. */
  connectTimeoutMs?: number;
  onChange?: () => void;
  /**
   * With a floating address every agent listens on it (non-local bind) but only its holder receives connections:
   * this says whether this host holds it now, so that only the holder reports serving.
   */
  holdsAddress?: () => boolean;
}

interface Served {
  endpoint: AgentEndpoint;
  server: net.Server | null;
  listening: boolean;
  sockets: Set<net.Socket>;
  /** Targets that refused recently, skipped until this time. */
  badUntil: Map<string, number>;
}

/**
 * Serves the stable per-cluster endpoints: a TCP forwarder on the
 * endpoint host, one port per cluster, that hands each client connection to
 * the first live instance of the cluster (primaries first). A Redis Cluster
 * client only bootstraps through it (CLUSTER SLOTS) and then talks to the
 * instances directly, so no proxy sits in the data path.
 *
 * Every agent tries to serve every endpoint. Locally the address can be held
 * by one process only: the first agent to bind it serves it, the others try
 * again every `retryBindMs`, so when the serving agent dies another one takes
 * the address within that time. On hosts the same loop follows a floating IP
 * (only the holder can bind it) or, bound to 0.0.0.0, serves behind a load
 * balancer.
 */
export class EndpointServer {
  private readonly served = new Map<number, Served>();
  private host: string | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private bindTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly d: EndpointServerDeps) {}

  start(): void {
    const refresh = async () => {
      try {
        this.apply(await this.d.fetch());
      } catch (err) {
        this.d.log.debug({ err: (err as Error).message }, 'could not read endpoints; keeping the last list');
      }
      if (!this.stopped) this.refreshTimer = setTimeout(refresh, this.d.refreshMs ?? 1000);
    };
    void refresh();
    const bind = () => {
      this.bindAll();
      if (!this.stopped) this.bindTimer = setTimeout(bind, this.d.retryBindMs ?? 250);
    };
    this.bindTimer = setTimeout(bind, this.d.retryBindMs ?? 250);
  }

  /** Ports this agent is serving (listening on) now. */
  servingPorts(): number[] {
    if (this.d.holdsAddress && !this.d.holdsAddress()) return [];
    return [...this.served.values()].filter((s) => s.listening).map((s) => s.endpoint.port);
  }

  /** Takes in a new endpoint list: new endpoints are bound, removed ones closed, targets updated. */
  apply(list: AgentEndpoints): void {
    const host = this.d.bindAddress ?? list.host;
    if (host !== this.host) {
      for (const port of [...this.served.keys()]) this.close(port);
      this.host = host;
    }
    if (!host) return;
    const wanted = new Map(list.items.map((e) => [e.port, e]));
    for (const port of [...this.served.keys()]) if (!wanted.has(port)) this.close(port);
    for (const [port, endpoint] of wanted) {
      const s = this.served.get(port);
      if (s) s.endpoint = endpoint;
      else this.served.set(port, { endpoint, server: null, listening: false, sockets: new Set(), badUntil: new Map() });
    }
    this.bindAll();
  }

  stop(): void {
    this.stopped = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    if (this.bindTimer) clearTimeout(this.bindTimer);
    for (const port of [...this.served.keys()]) this.close(port);
  }

  private bindAll(): void {
    if (!this.host || this.stopped) return;
    for (const s of this.served.values()) if (!s.server) this.bind(s);
  }

  private bind(s: Served): void {
    const server = net.createServer((client) => this.forward(s, client));
    s.server = server;
    server.once('error', (err: NodeJS.ErrnoException) => {
      // Held by another agent (or the floating address is not ours): try again on the next round.
      if (err.code !== 'EADDRINUSE' && err.code !== 'EADDRNOTAVAIL') this.d.log.warn({ err: err.message, port: s.endpoint.port }, 'endpoint could not listen');
      s.server = null;
      server.close();
    });
    server.listen({ host: this.host!, port: s.endpoint.port, exclusive: true }, () => {
      if (s.server !== server) return void server.close();
      s.listening = true;
      this.d.log.info({ host: this.host, port: s.endpoint.port, clusterId: s.endpoint.clusterId }, 'serving cluster endpoint');
      this.d.onChange?.();
    });
  }

  private close(port: number): void {
    const s = this.served.get(port);
    if (!s) return;
    this.served.delete(port);
    for (const sock of s.sockets) sock.destroy();
    const wasListening = s.listening;
    s.listening = false;
    s.server?.close();
    s.server = null;
    if (wasListening) {
      this.d.log.info({ host: this.host, port, clusterId: s.endpoint.clusterId }, 'stopped serving cluster endpoint');
      this.d.onChange?.();
    }
  }

  /** Connects the client to the first target that answers, skipping ones that refused in the last few seconds. */
  private forward(s: Served, client: net.Socket): void {
    s.sockets.add(client);
    client.on('close', () => s.sockets.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    const now = Date.now();
    const fresh = s.endpoint.targets.filter((t) => (s.badUntil.get(t) ?? 0) <= now);
    const order = [...fresh, ...s.endpoint.targets.filter((t) => !fresh.includes(t))];
    const attempt = (i: number): void => {
      if (client.destroyed) return;
      const target = order[i];
      if (!target) return void client.destroy();
      const [host, port] = splitHostPort(target);
      const upstream = net.connect({ host, port });
      const timer = setTimeout(() => upstream.destroy(new Error('connect timeout')), this.d.connectTimeoutMs ?? 300);
      upstream.once('error', () => {
        clearTimeout(timer);
        s.badUntil.set(target, Date.now() + 3000);
        attempt(i + 1);
      });
      upstream.once('connect', () => {
        clearTimeout(timer);
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        s.sockets.add(upstream);
        upstream.on('close', () => s.sockets.delete(upstream));
        upstream.setNoDelay(true);
        client.setNoDelay(true);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }
}

function splitHostPort(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i), Number(address.slice(i + 1))];
}
