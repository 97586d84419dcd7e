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
