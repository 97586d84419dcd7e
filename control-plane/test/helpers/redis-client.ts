import { Cluster, Redis } from 'ioredis';

/** A Redis Cluster client built from nothing but the connection URI, as an application would. */
export function clusterFromUri(uri: string): Cluster {
  const u = new URL(uri);
  return new Cluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) },
    clusterRetryStrategy: () => null,
    enableOfflineQueue: true,
  });
}

export function standalone(address: string, auth?: { username: string; password: string }): Redis {
  const [host, port] = address.split(':');
  return new Redis({ host, port: Number(port), ...auth, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
}

/**
 * The primaries `client` routes to once its slot map agrees with the cluster's primaries as `expected` gives them
 * (addresses "host:port"; a function is asked again each round: the API's topology, which a switchover moving a
 * primary back after a failover may change meanwhile), re-reading the map until then: right after slots move, the
 * node a client asks may still hold the old map for a gossip round or two, and a client keeps every primary a
 * redirection named until its next full refresh. Throws, naming what it saw, when they do not agree within `timeoutMs`.
 */
export async function settledPrimaries(client: Cluster, expected: string[] | (() => Promise<string[]>), timeoutMs = 15_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const want = (typeof expected === 'function' ? await expected() : expected).slice().sort().join(' ');
    await new Promise<void>((resolve) => client.refreshSlotsCache(() => resolve()));
    const seen = client.nodes('master').map((n) => `${n.options.host}:${n.options.port}`).sort();
    if (seen.join(' ') === want) return seen;
    if (Date.now() > deadline) throw new Error(`the client's slot map names primaries ${seen.join(', ')}; the cluster's are ${want}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
