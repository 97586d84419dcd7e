import { Router } from 'express';
import type pg from 'pg';
import { mountOperation } from '../http/operation-router';
import { conflict } from '../errors';
import { inTransaction } from '../db/tx';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import { hashToken, newToken } from '../crypto/tokens';

/** Organizations (platform admins). Users, tokens and the audit log have their own route files. */
export function organizationRoutes(d: { pool: pg.Pool; auth: AuthStore }): Router {
  const r = Router();

  mountOperation(r, '/v1', 'createOrganization', async ({ body }) => {
    const token = newToken('stk');
    try {
      const organization = await inTransaction(d.pool, async (db) => {
        const org = await d.auth.createOrganization(body.name, db);
        await d.auth.createApiToken({ organizationId: org.id, name: 'admin (organization created)', tokenHash: hashToken(token), isPlatformAdmin: false, scopes: ['admin'] }, db);
        return org;
      });
      return { organization, token };
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('name_taken', `An organization named "${body.name}" exists.`, [{ field: 'name', message: 'taken' }]);
      throw err;
    }
  });

  return r;
}
