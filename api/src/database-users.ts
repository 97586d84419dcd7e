/**
 * Database users: extra Redis ACL users of one cluster, with rights from a
 * preset narrowed by key and channel patterns. Passwords are shown once (on
 * create and rotate) and stored only as SHA-256 hashes.
 */
import { z, Timestamp, safeString } from './common';
import {
  DATABASE_USER_NAME, DATABASE_USER_PASSWORD_MIN, DATABASE_USER_PATTERN, DATABASE_USER_PRESETS, isReservedDatabaseUserName,
} from '@strata/engine/database-user-names';

export const DatabaseUserPreset = z
  .enum(DATABASE_USER_PRESETS)
  .describe('read-only: reads only; read-write: what the cluster\'s own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)');
export type DatabaseUserPreset = z.infer<typeof DatabaseUserPreset>;

export const DatabaseUserName = safeString()
  .regex(DATABASE_USER_NAME, '1-64 letters, digits, "_", "." or "-", starting with a letter or digit (no spaces)')
  .refine((n) => !isReservedDatabaseUserName(n), { message: 'is reserved by Strata ("default", "app" and names starting with "strata")' })
  .describe('the Redis user name clients AUTH with');

const Pattern = safeString().regex(
  DATABASE_USER_PATTERN,
  'a glob of letters, digits and * ? [ ] { } : _ . / | = , $ ! ^ + - @ (at most 128; no spaces, quotes or backslashes; not starting with ACL rule syntax such as ~ & % + - @ #)',
);

export const DatabaseUserPassword = safeString()
  .min(DATABASE_USER_PASSWORD_MIN, `must be at least ${DATABASE_USER_PASSWORD_MIN} characters`)
  .max(256)
  .describe(`at least ${DATABASE_USER_PASSWORD_MIN} characters; when absent, Strata generates one (64 hex characters)`);

/** How long a rotated-out password keeps working by default. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 3600;

export const CreateDatabaseUserRequest = z
  .strictObject({
    name: DatabaseUserName,
    preset: DatabaseUserPreset,
    keyPatterns: z.array(Pattern).min(1).max(32).optional().describe('key globs the user may touch (e.g. "orders:*"); every key when absent'),
    channelPatterns: z.array(Pattern).min(1).max(32).optional().describe('Pub/Sub channel globs; every channel when absent'),
    password: DatabaseUserPassword.optional(),
  })
  .openapi('CreateDatabaseUserRequest');
export type CreateDatabaseUserRequest = z.infer<typeof CreateDatabaseUserRequest>;

export const RotateDatabaseUserRequest = z
  .strictObject({
    graceSeconds: z.number().int().min(0).max(7 * 86400).optional()
      .describe(`how long the previous password keeps working (default ${DEFAULT_ROTATION_GRACE_SECONDS}; 0: at once)`),
    password: DatabaseUserPassword.optional(),
  })
  .openapi('RotateDatabaseUserRequest');
export type RotateDatabaseUserRequest = z.infer<typeof RotateDatabaseUserRequest>;

export const DatabaseUser = z
  .object({
    name: z.string(),
    preset: DatabaseUserPreset,
    keyPatterns: z.array(z.string()).describe('empty: every key'),
    channelPatterns: z.array(z.string()).describe('empty: every channel'),
    createdAt: Timestamp,
    passwordRotatedAt: Timestamp.nullable(),
    previousPasswordExpiresAt: Timestamp.nullable().describe('while a rotation\'s grace period runs: when the previous password stops working'),
    applied: z.boolean().describe('every running instance has this user as it is now'),
  })
  .openapi('DatabaseUser');
export type DatabaseUser = z.infer<typeof DatabaseUser>;

export const DatabaseUserWithPassword = z
  .object({
    user: DatabaseUser,
    password: z.string().describe('shown once: Strata keeps only its SHA-256 hash'),
  })
  .openapi('DatabaseUserWithPassword');
export type DatabaseUserWithPassword = z.infer<typeof DatabaseUserWithPassword>;

export const DatabaseUserList = z.object({ items: z.array(DatabaseUser) }).openapi('DatabaseUserList');
export type DatabaseUserList = z.infer<typeof DatabaseUserList>;

/** A database user as engines get it (password hashes only). */
export const DatabaseUserAcl = z.object({
  name: z.string(),
  preset: DatabaseUserPreset,
  keyPatterns: z.array(z.string()).optional(),
  channelPatterns: z.array(z.string()).optional(),
  passwordHashes: z.array(z.string()),
});
export type DatabaseUserAcl = z.infer<typeof DatabaseUserAcl>;
