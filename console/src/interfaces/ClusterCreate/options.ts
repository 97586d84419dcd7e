import { LIMITS, type Durability, type EngineVersion, type EvictionPolicy, type Fencing, type TlsClientAuth } from '@strata/api';

/** One line per durability mode, shown in the wizard. Keys are checked against the schema's enum. */
export const DURABILITY_OPTIONS: Record<Durability, { title: string; description: string }> = {
  none: {
    title: 'None (in memory)',
    description: 'Fastest. Nothing is written to disk; a primary that restarts without a replica loses its data.',
  },
  'aof-everysec': {
    title: 'AOF, every second',
    description: 'Append-only file fsynced once a second: at most about one second of writes is lost on a crash.',
  },
  'aof-always': {
    title: 'AOF, every write',
    description: 'fsync before every write is acknowledged: no acknowledged write is lost, at the cost of throughput.',
  },
};

/** The engines, as the wizard offers them: what each means for the cluster. */
export const ENGINE_OPTIONS: Record<EngineVersion, { title: string; description: string }> = {
  '7': {
    title: 'Redis 7.0',
    description: "Debian's redis-server 7.0.",
  },
  'valkey-8': {
    title: 'Valkey 8',
    description: 'Valkey 8.0, the open-source fork of Redis 7.2: the same protocol, commands and clients.',
  },
};

/** Write fencing, as the wizard and Settings offer it. */
export const FENCING_OPTIONS: Record<Fencing, { title: string; description: string }> = {
  off: {
    title: 'Off',
    description: 'Redis defaults: a primary cut off from the other side of a network split keeps accepting writes until it notices (about 2 s), and those writes are lost when a replica took over.',
  },
  on: {
    title: 'On (needs a replica)',
    description: 'A primary accepts writes only while a replica acknowledged it within 2 s: cut off from its replicas it refuses writes, so it cannot acknowledge writes a failover would throw away. A shard also refuses writes while it has no replica connected (a replica restarting or being rebuilt): two replicas per shard avoid that.',
  },
};

/** Client certificates (mTLS) of a TLS cluster, as the wizard and Settings offer them: what each means for clients. */
export const CLIENT_AUTH_OPTIONS: Record<TlsClientAuth, { title: string; description: string }> = {
  none: {
    title: 'Not asked',
    description: 'Clients log in with their password over TLS and present no certificate.',
  },
  optional: {
    title: 'Optional (verified when presented)',
    description: 'A client that presents a certificate must present a valid one from this cluster; a client without one logs in on its password alone. Use it to move clients to certificates before requiring them.',
  },
  required: {
    title: 'Required',
    description: 'Every client presents a certificate from this cluster (create them on the Connect tab) as well as its password; a client without one is refused during the TLS handshake.',
  },
};

/**
 * What a change of client certificates does to clients that are connecting
 * now, said before it is applied; null when nothing is refused that was let in.
 */
export function clientAuthWarning(from: TlsClientAuth, to: TlsClientAuth): string | null {
  if (to !== 'required' || from === 'required') return null;
  return from === 'optional'
    ? 'Clients that connect without a certificate are refused from then on: give every client its certificate first. Open connections stay.'
    : 'Clients without a certificate are refused from then on: create a certificate for every client on the Connect tab and deploy them first (or choose Optional first). Open connections stay.';
}

export const EVICTION_OPTIONS: Record<EvictionPolicy, string> = {
  noeviction: 'Reject writes when memory is full (best for data you must not lose).',
  'allkeys-lru': 'Evict the least recently used keys (a typical cache).',
  'allkeys-lfu': 'Evict the least frequently used keys.',
  'allkeys-random': 'Evict random keys.',
  'volatile-lru': 'Evict the least recently used keys that have a TTL.',
  'volatile-lfu': 'Evict the least frequently used keys that have a TTL.',
  'volatile-random': 'Evict random keys that have a TTL.',
  'volatile-ttl': 'Evict keys with a TTL, the nearest expiry first.',
};

export const MEMORY_OPTIONS_MB: readonly number[] = [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536].filter(
  (mb) => mb >= LIMITS.memoryMbPerShard.min && mb <= LIMITS.memoryMbPerShard.max,
);
