/**
 * What a database user may be called and which patterns it may have: shared
 * by the API's validation and the engine's rule rendering (no I/O, safe in a
 * browser bundle).
 */
export const DATABASE_USER_PRESETS = ['read-only', 'read-write', 'read-write-safe'] as const;
export type DatabaseUserPreset = (typeof DATABASE_USER_PRESETS)[number];

/** Names: 1-64 of letters, digits, `_`, `.`, `-`, starting with a letter or digit. */
export const DATABASE_USER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Key and channel glob patterns: letters, digits, glob characters and common
 * separators; no space, quote, backslash or control character, and not
 * starting with `-`, `~`, `&`, `%`, `+`, `>`, `<`, `#` or `@` (ACL rule syntax).
 */
export const DATABASE_USER_PATTERN = /^[A-Za-z0-9_:.*?[\]{}/|=,$!^][A-Za-z0-9_:.*?[\]{}/|=,@$!^+-]{0,127}$/;

/** Names Strata keeps for itself: Redis's default user, the cluster's own users, its spares' users (any `strata`-prefixed name). */
export const isReservedDatabaseUserName = (name: string, own: readonly string[] = []): boolean =>
  name.toLowerCase() === 'default' || name.toLowerCase().startsWith('strata') || own.includes(name);

/** Shortest password a user may give; generated ones are 32 bytes of randomness in hex (64 characters). */
export const DATABASE_USER_PASSWORD_MIN = 16;
