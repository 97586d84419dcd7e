/**
 * Which RDB format versions the engine here loads, decided in this one
 * place. Strata runs redis-server 7.0 (Debian's 7.0.15), which reads RDB
 * versions up to 10 and refuses a newer file when it loads it; a restore
 * must refuse such a file up front instead, before anything is created.
 */

/** The newest RDB format version redis-server 7.0 loads. */
export const MAX_RDB_VERSION = 10;

/** The RDB version each Redis release writes (newest first; a release writes its line's version). */
const RDB_VERSION_OF_REDIS: readonly [major: number, minor: number, rdb: number][] = [
  [7, 4, 12], [7, 2, 11], [7, 0, 10], [5, 0, 9], [4, 0, 8], [3, 2, 7], [2, 6, 6],
];

/** The RDB version a Redis of `redisVersion` (e.g. "7.2.4") writes; null when it cannot tell. */
export function rdbVersionOfRedis(redisVersion: string): number | null {
  const m = /^(\d+)\.(\d+)/.exec(redisVersion);
  if (!m) return null;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  // Redis 8 and later write at least what 7.4 writes.
  if (major >= 8) return RDB_VERSION_OF_REDIS[0]![2];
  const row = RDB_VERSION_OF_REDIS.find(([ma, mi]) => major > ma || (major === ma && minor >= mi));
  return row ? row[2] : null;
}

/** The format version in an RDB file's first 9 bytes (`REDIS0010` -> 10); null when fewer are given. */
export function readRdbVersion(head: Buffer): number | null {
  if (head.length < 9) return null;
  if (head.subarray(0, 5).toString('latin1') !== 'REDIS') throw new Error('not an RDB file (no REDIS magic)');
  const digits = head.subarray(5, 9).toString('latin1');
  if (!/^\d{4}$/.test(digits)) throw new Error('not an RDB file (bad version)');
  return Number(digits);
}

/** Why a file of this RDB version cannot be loaded here (null: it can). The message starts with the error's code. */
export function rdbVersionProblem(version: number): string | null {
  return version > MAX_RDB_VERSION
    ? `rdb_version_unsupported: RDB version ${version} is newer than the engine here loads (redis-server 7.0 reads RDB versions up to ${MAX_RDB_VERSION})`
    : null;
}

/** Whether an agent's error message is an RDB version refusal (rdbVersionProblem). */
export const isRdbVersionError = (message: string) => message.includes('rdb_version_unsupported: ');
