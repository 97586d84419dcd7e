/**
 * Database users: the extra ACL users a customer creates on a cluster
 * (besides Strata's internal user and the cluster's own customer user).
 * The one translation of a user's preset and patterns into ACL rules, used
 * for redis.conf `user` lines and for ACL SETUSER alike, and the digest that
 * says which set of users an instance has applied.
 */
import { createHash } from 'node:crypto';
import { CUSTOMER_ACL_RULES } from './acl-rules';

import { DATABASE_USER_NAME, DATABASE_USER_PATTERN, type DatabaseUserPreset } from '../database-user-names';

/** One database user as every instance must know it: passwords only as SHA-256 hex (Redis accepts `#<hash>`). */
export interface DatabaseUserAcl {
  name: string;
  preset: DatabaseUserPreset;
  /** Key glob patterns (`~pattern`); every key when absent or empty. */
  keyPatterns?: string[];
  /** Pub/Sub channel glob patterns (`&pattern`); every channel when absent or empty. */
  channelPatterns?: string[];
  /** SHA-256 hex of each password that opens the user (two while a rotation's grace period runs). */
  passwordHashes: string[];
}

/**
 * Commands Redis Cluster clients and tools need to find their way, allowed
 * to every preset: topology (CLUSTER SLOTS/SHARDS/NODES/INFO), INFO,
 * COMMAND, naming their connection, READONLY/READWRITE for replica reads.
 */
const CLIENT_ESSENTIALS: readonly string[] = [
  '+info',
  '+cluster|info',
  '+cluster|nodes',
  '+cluster|slots',
  '+cluster|shards',
  '+cluster|myid',
  '+cluster|keyslot',
  '+client|setname',
  '+client|getname',
  '+client|id',
  '+client|info',
  '+readonly',
  '+readwrite',
  '+command',
  '+command|docs',
  '+command|count',
];

/** Command rules per preset (after the key and channel patterns). */
export const PRESET_COMMAND_RULES: Record<DatabaseUserPreset, readonly string[]> = {
  /** Reads only: no write, admin or dangerous command (KEYS, SORT, FLUSHALL...). */
  'read-only': ['-@all', '+@read', '+@connection', '-@admin', '-@dangerous', ...CLIENT_ESSENTIALS],
  /** What the cluster's own customer user may do. */
  'read-write': CUSTOMER_ACL_RULES.filter((r) => !r.startsWith('~') && !r.startsWith('&')),
  /** Reads and writes without admin and dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT, DEBUG...). */
  'read-write-safe': ['+@all', '-@admin', '-@dangerous', ...CLIENT_ESSENTIALS],
};

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function sha256Hex(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

/**
 * The user's full ACL rules, from `reset` on: ACL SETUSER takes them as
 * arguments, redis.conf's `user` line as words. Throws on anything that
 * is not a valid user (the API refuses it before; this is the last guard).
 */
export function databaseUserRules(u: DatabaseUserAcl): string[] {
  if (!DATABASE_USER_NAME.test(u.name) || u.name === 'default') throw new Error(`invalid database user name ${JSON.stringify(u.name)}`);
  const rules = PRESET_COMMAND_RULES[u.preset];
  if (!rules) throw new Error(`unknown preset ${JSON.stringify(u.preset)}`);
  for (const h of u.passwordHashes) if (!SHA256_HEX.test(h)) throw new Error(`user ${u.name}: a password hash is not SHA-256 hex`);
  const keys = u.keyPatterns?.length ? u.keyPatterns : ['*'];
  const channels = u.channelPatterns?.length ? u.channelPatterns : ['*'];
  for (const p of [...keys, ...channels]) if (!DATABASE_USER_PATTERN.test(p)) throw new Error(`user ${u.name}: invalid pattern ${JSON.stringify(p)}`);
  return [
    'reset',
    u.passwordHashes.length ? 'on' : 'off',
    ...u.passwordHashes.map((h) => `#${h}`),
    ...keys.map((p) => `~${p}`),
    ...channels.map((p) => `&${p}`),
    ...rules,
  ];
}

/** The `user` lines of redis.conf (patterns never need quoting: PATTERN has no space, quote or backslash). */
export function databaseUserConfigLines(users: readonly DatabaseUserAcl[]): string[] {
  return users.map((u) => `user ${u.name} ${databaseUserRules(u).join(' ')}`);
}

/** Which set of users (with their rules and passwords) an instance has: equal digests, equal users. */
export function databaseUsersDigest(users: readonly DatabaseUserAcl[]): string {
  const canonical = [...users].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((u) => [u.name, databaseUserRules({ ...u, passwordHashes: [...u.passwordHashes].sort() })]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 32);
}

/** One instance as the user-sync planner sees it. */
export interface UserSyncInstance {
  id: string;
  /** Its process runs (a stopped one gets the users from its config when it starts). */
  running: boolean;
  /** The digest of the users its agent says it gave it; null: none (an engine started before Strata had database users, or an agent that predates them). */
  usersDigest: string | null;
}

/** The digest of no database users: what an engine that never got any has. */
export const NO_USERS_DIGEST = databaseUsersDigest([]);

/**
 * Every running instance whose applied users differ from the desired ones
 * gets a `sync-users` (ACL SETUSER/DELUSER at runtime, redis.conf rewritten).
 * Instances started later carry the users in the config they start with.
 */
export function planUserSync(input: {
  desiredDigest: string;
  /** The users' change counter: with the digest, the identity of one sync (the same users again after a change are a new sync). */
  generation: number;
  instances: readonly UserSyncInstance[];
}): { kind: 'sync-users'; instanceId: string; generation: number; digest: string }[] {
  return input.instances
    .filter((i) => i.running && (i.usersDigest ?? NO_USERS_DIGEST) !== input.desiredDigest)
    .map((i) => ({ kind: 'sync-users' as const, instanceId: i.id, generation: input.generation, digest: input.desiredDigest }));
}
