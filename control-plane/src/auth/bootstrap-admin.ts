import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { inTransaction } from '../db/tx';
import type { AuthStore } from '../stores/auth.store';
import { hashPassword, hashToken, newPassword, newToken } from '../crypto/tokens';

export const DEFAULT_ORG = 'default';

/**
 * First start: organization `default`, an admin user and an admin API token.
 * Token and password go to files under STRATA_HOME (mode 0600); only hashes are stored.
 * Later starts only return the default organization's id.
 */
export async function bootstrapAdmin(deps: { pool: pg.Pool; auth: AuthStore; home: string; adminEmail: string; log: Logger }) {
  const existing = await deps.auth.findOrganizationByName(DEFAULT_ORG);
  const tokenFile = path.join(deps.home, 'admin-token');
  const passwordFile = path.join(deps.home, 'admin-password');
  if (existing) return { organizationId: existing.id, tokenFile, passwordFile, created: false };

  mkdirSync(deps.home, { recursive: true, mode: 0o700 });
  const token = newToken('stk');
  const password = newPassword();
  const org = await inTransaction(deps.pool, async (db) => {
    const o = await deps.auth.createOrganization(DEFAULT_ORG, db);
    await deps.auth.createUser({ organizationId: o.id, email: deps.adminEmail, passwordHash: await hashPassword(password), isAdmin: true, role: 'admin' }, db);
    await deps.auth.createApiToken({ organizationId: o.id, name: 'admin (first start)', tokenHash: hashToken(token), isPlatformAdmin: true }, db);
    return o;
  });
  writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
  writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  deps.log.info({ tokenFile, passwordFile, email: deps.adminEmail }, 'created organization "default", admin user and admin token');
  return { organizationId: org.id, tokenFile, passwordFile, created: true };
}

export const readSecretFile = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null);
