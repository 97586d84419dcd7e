import type { EngineCredentials } from '../../domain';
import { CUSTOMER_ACL_RULES, INTERNAL_ACL_RULES, specSettings, type EngineSettings } from '../config.renderer';
import { connectAdmin, internalLogin } from './admin-connection';
import { syncDatabaseUsers } from './database-users';

export interface InstanceSettings extends EngineSettings {
  credentials: EngineCredentials;
}

/** Users a warm spare starts with; replaced when it is claimed. */
export const SPARE_USERS = { internalUser: 'strata-spare', customerUser: 'strata-spare-app' } as const;

/**
 * Turns a running, never-clustered spare into a cluster's instance at runtime:
 * the cluster's users, replication credentials, memory, eviction,
 * persistence and write fencing, then removes the spare's own users and sets its database users. The same settings are in
 * the redis.conf the agent writes beside it, so a restart keeps them.
 */
export async function applyInstanceSettings(opts: {
  host: string; port: number; current: { username: string; password: string }; settings: InstanceSettings; timeoutMs?: number;
}): Promise<void> {
  const { credentials: c, ...engine } = opts.settings;
  const timeoutMs = opts.timeoutMs ?? 2000;
  // Spares serve plain text: a TLS instance never claims one (it starts cold with its certificate).
  if (c.tls) throw new Error('a warm spare serves plain text; a TLS instance starts cold');
  const spare = await connectAdmin({ host: opts.host, port: opts.port, ...opts.current }, timeoutMs);
  try {
    await spare.call('ACL', 'SETUSER', c.internalUser, 'reset', 'on', `>${c.internalPassword}`, ...INTERNAL_ACL_RULES);
    await spare.call('ACL', 'SETUSER', c.customerUser, 'reset', 'on', `>${c.customerPassword}`, ...CUSTOMER_ACL_RULES);
    await spare.call('CONFIG', 'SET',
      'masteruser', c.internalUser, 'masterauth', c.internalPassword,
      ...specSettings(engine).flat());
  } finally {
    spare.disconnect();
  }
  const internal = await connectAdmin({ host: opts.host, port: opts.port, ...internalLogin(c) }, timeoutMs);
  try {
    const leftovers = [opts.current.username, SPARE_USERS.internalUser, SPARE_USERS.customerUser]
      .filter((u, i, all) => all.indexOf(u) === i && u !== c.internalUser && u !== c.customerUser);
    if (leftovers.length) await internal.call('ACL', 'DELUSER', ...leftovers);
    await syncDatabaseUsers(internal, c.databaseUsers ?? [], [c.internalUser, c.customerUser]);
  } finally {
    internal.disconnect();
  }
}
