import type { Durability, EngineCredentials, EvictionPolicy, Fencing, TlsClientAuth } from '../domain';
import { assertSafeUsername, quoteConfigArg } from './config.quoting';
import { clientAuthSettings, tlsSettings, type TlsFiles } from './tls-settings';
import { layoutPorts, type TlsLayout } from './tls-switch.plan';
import { CUSTOMER_ACL_RULES, INTERNAL_ACL_RULES } from './acl-rules';
import { databaseUserConfigLines } from './database-users';

export { CUSTOMER_ACL_RULES, INTERNAL_ACL_RULES };

export interface RedisConfigInput {
  /** The one address the instance binds to and announces to the cluster. */
  address: string;
  port: number;
  dataDir: string;
  memoryMb: number;
  durability: Durability;
  evictionPolicy: EvictionPolicy;
  /** Absent: off. */
  fencing?: Fencing;
  credentials: EngineCredentials;
  /** TLS only (plain-text port closed), with these files; absent: plain text. */
  tls?: TlsFiles;
  /** With `tls`: whether clients must present a certificate (absent: none). */
  tlsClientAuth?: TlsClientAuth;
  /**
   * A valkey-8 cluster whose TLS was switched in place (or is being switched): what its ports serve and the protocol
   * of its cluster bus, which keeps the one it was created with. Absent: `tls` alone decides (TLS everywhere, or none).
   */
  tlsLayout?: InstanceTlsLayout;
}

/** What one instance's ports serve; `secondPort` while both protocols are served. */
export interface InstanceTlsLayout {
  layout: TlsLayout;
  secondPort?: number;
  /** The cluster bus speaks TLS (tls-cluster). */
  bus: boolean;
}


/** cluster-node-timeout of every instance: failure detection after ~2 s of silence. */
export const CLUSTER_NODE_TIMEOUT_MS = 2000;


/** Persistence directives per durability, as [name, value] pairs: rendered into redis.conf and applied with CONFIG SET. */
export const PERSISTENCE_SETTINGS: Record<Durability, readonly (readonly [string, string])[]> = {
  none: [['save', ''], ['appendonly', 'no']],
  'aof-everysec': [['save', ''], ['appendonly', 'yes'], ['appendfsync', 'everysec']],
  'aof-always': [['save', ''], ['appendonly', 'yes'], ['appendfsync', 'always']],
};

/** Seconds within which a replica must have acknowledged (REPLCONF ACK, sent every second) for a fenced primary to accept a write. */
export const FENCING_MAX_LAG_S = 2;

/**
 * Write fencing: `on` refuses writes (NOREPLICAS) on a primary none of whose
 * replicas acknowledged within FENCING_MAX_LAG_S; `off` is Redis's default.
 */
export const FENCING_SETTINGS: Record<Fencing, readonly (readonly [string, string])[]> = {
  off: [['min-replicas-to-write', '0'], ['min-replicas-max-lag', '10']],
  on: [['min-replicas-to-write', '1'], ['min-replicas-max-lag', String(FENCING_MAX_LAG_S)]],
};

/** The settings an instance runs with: memory, eviction, persistence and write fencing (absent: off). */
export interface EngineSettings {
  memoryMb: number;
  durability: Durability;
  evictionPolicy: EvictionPolicy;
  fencing?: Fencing;
  /** A TLS instance's client certificate rule; absent on a plain-text instance (nothing to set). */
  tlsClientAuth?: TlsClientAuth;
}

/** What an instance's spec sets: memory limit and eviction policy. */
export function memorySettings(s: { memoryMb: number; evictionPolicy: EvictionPolicy }): readonly (readonly [string, string])[] {
  return [['maxmemory', `${s.memoryMb}mb`], ['maxmemory-policy', s.evictionPolicy]];
}

/**
 * Every setting that follows an instance's spec (memory, eviction,
 * persistence, write fencing, a TLS instance's client certificates), as [name, value] pairs: the one translation
 * of a spec into Redis settings, rendered into redis.conf and applied at
 * runtime with CONFIG SET (a claimed spare, an in-place reconfigure).
 */
export function specSettings(s: EngineSettings): readonly (readonly [string, string])[] {
  return [...memorySettings(s), ...PERSISTENCE_SETTINGS[s.durability], ...FENCING_SETTINGS[s.fencing ?? 'off'], ...(s.tlsClientAuth ? clientAuthSettings(s.tlsClientAuth) : [])];
}

const directive = ([name, value]: readonly [string, string]) => `${name} ${/^[a-z0-9-]+$/.test(value) ? value : quoteConfigArg(value)}`;

/** Renders a complete redis.conf for one Redis Cluster instance. */
export function renderRedisConfig(input: RedisConfigInput): string {
  const { address, port, dataDir, memoryMb, durability, evictionPolicy, credentials } = input;
  const fencing = input.fencing ?? 'off';
  if (!Number.isInteger(port) || port < 1 || port + 10000 > 65535) {
    throw new RangeError(`port must be an integer in 1..55535 (cluster bus uses port+10000), got ${port}`);
  }
  if (!Number.isInteger(memoryMb) || memoryMb < 1) throw new RangeError(`memoryMb must be a positive integer, got ${memoryMb}`);
  if (!/^[0-9A-Za-z.:_-]+$/.test(address)) throw new Error(`invalid bind address ${JSON.stringify(address)}`);
  assertSafeUsername(credentials.customerUser);
  assertSafeUsername(credentials.internalUser);
  if (credentials.customerUser === credentials.internalUser) throw new Error('customer and internal users must differ');
  for (const u of credentials.databaseUsers ?? []) {
    if (u.name === credentials.customerUser || u.name === credentials.internalUser) throw new Error(`database user ${u.name} has a name Strata reserves`);
  }
  for (const [name, value] of Object.entries(credentials)) {
    if (name.endsWith('Password') && typeof value === 'string' && value.length < 8) throw new Error(`${name} must be at least 8 characters`);
  }
  const q = quoteConfigArg;

  const lines = [
    '# Rendered by @strata/engine. Do not edit: the agent rewrites it.',
    `bind ${address}`,
    // A TLS instance has no plain-text port: it serves TLS on `port` (tls-port below).
    `port ${input.tlsLayout ? layoutPorts(input.tlsLayout.layout, port, input.tlsLayout.secondPort ?? null).plainPort : input.tls ? 0 : port}`,
    'protected-mode no',
    'daemonize no',
    `dir ${q(dataDir)}`,
    `pidfile ${q(`${dataDir}/redis.pid`)}`,
    `logfile ${q(`${dataDir}/redis.log`)}`,
    '',
    '# Cluster',
    'cluster-enabled yes',
    'cluster-config-file nodes.conf',
    `cluster-node-timeout ${CLUSTER_NODE_TIMEOUT_MS}`,
    'cluster-allow-replica-migration no',
    `cluster-announce-ip ${address}`,
    '',
    '# Replication',
    'repl-diskless-sync yes',
    'repl-diskless-sync-delay 0',
    `masteruser ${q(credentials.internalUser)}`,
    `masterauth ${q(credentials.internalPassword)}`,
    `# Write fencing: ${fencing}`,
    ...FENCING_SETTINGS[fencing].map(directive),
    '',
    `# Persistence: ${durability}`,
    ...PERSISTENCE_SETTINGS[durability].map(directive),
    '',
    '# Memory',
    ...memorySettings({ memoryMb, evictionPolicy }).map(directive),
    '',
    '# Latency',
    'latency-tracking yes',
    'latency-tracking-info-percentiles "50 99 99.9"',
    '',
    '# Users: default disabled, internal for agents and replication, customer without admin commands',
    'user default off resetpass resetkeys resetchannels -@all',
    `user ${credentials.internalUser} reset on ${q(`>${credentials.internalPassword}`)} ${INTERNAL_ACL_RULES.join(' ')}`,
    `user ${credentials.customerUser} reset on ${q(`>${credentials.customerPassword}`)} ${CUSTOMER_ACL_RULES.join(' ')}`,
    ...(credentials.databaseUsers?.length ? ['', '# Database users (passwords as SHA-256)', ...databaseUserConfigLines(credentials.databaseUsers)] : []),
  ];
  if (input.tlsLayout) lines.push(...layoutLines(port, input.tlsLayout, input.tls, input.tlsClientAuth));
  else if (input.tls) lines.push('', '# TLS only: client port, replication and cluster bus', ...tlsSettings(port, input.tls, input.tlsClientAuth).map(directive));
  return `${lines.join('\n')}\n`;
}

/** The TLS lines of an instance with a layout: its TLS port (0: none), replication's and the bus's protocol; the bus port pinned. */
function layoutLines(port: number, l: InstanceTlsLayout, files: TlsFiles | undefined, clientAuth: TlsClientAuth | undefined): string[] {
  const p = layoutPorts(l.layout, port, l.secondPort ?? null);
  // The bus port never follows a client port (one of them may be 0).
  const out = ['', `# TLS: ${l.layout} (the bus: ${l.bus ? 'TLS' : 'plain text'})`, `cluster-port ${port + 10000}`];
  if (!p.tlsPort && !l.bus) return out;
  if (!files) throw new Error(`TLS layout ${l.layout} needs TLS files`);
  const [, ...settings] = tlsSettings(port, files, clientAuth ?? 'none');
  const set = new Map<string, string>(settings.map(([k, v]) => [k, v]));
  set.set('tls-replication', p.tlsReplication ? 'yes' : 'no');
  set.set('tls-cluster', l.bus ? 'yes' : 'no');
  return [...out, directive(['tls-port', String(p.tlsPort)]), ...[...set].map(directive)];
}
