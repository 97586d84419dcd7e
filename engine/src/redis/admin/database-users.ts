import type Redis from 'ioredis';
import { databaseUserRules, type DatabaseUserAcl } from '../database-users';

/**
 * Makes a running instance's database users exactly `users`: ACL SETUSER for
 * each (rules and passwords replaced in one command, so its open connections
 * stay), ACL DELUSER for every other user except `default` and `keep`
 * (Strata's internal and customer users). DELUSER closes the deleted
 * user's connections at once. Returns the users deleted.
 */
export async function syncDatabaseUsers(client: Redis, users: readonly DatabaseUserAcl[], keep: readonly string[]): Promise<string[]> {
  for (const u of users) await client.call('ACL', 'SETUSER', u.name, ...databaseUserRules(u));
  const existing = (await client.call('ACL', 'USERS')) as string[];
  const wanted = new Set([...keep, 'default', ...users.map((u) => u.name)]);
  const extra = existing.filter((name) => !wanted.has(name));
  if (extra.length) await client.call('ACL', 'DELUSER', ...extra);
  return extra;
}
