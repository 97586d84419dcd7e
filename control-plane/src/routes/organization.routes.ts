import { Router } from 'express';
import type pg from 'pg';
import { CreateOrganizationRequest, CreateTokenRequest, CreateUserRequest } from '@strata/api';
import { parseBody } from '../http/validate';
import { requirePlatformAdmin } from '../auth/auth.middleware';
import { conflict } from '../errors';
import { inTransaction } from '../db/tx';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import { hashPassword, hashToken, newToken } from '../crypto/tokens';


/** Organizations, users and API tokens. */
export function organizationRoutes(d: { pool: pg.Pool; auth: AuthStore }): Router {
  const r = Router();

  r.post('/organizations', requirePlatformAdmin, async (req, res) => {
    const body = parseBody(CreateOrganizationRequest, req.body);
    const token = newToken('stk');
    try {
      const organization = await inTransaction(d.pool, async (db) => {
        const org = await d.auth.createOrganization(body.name, db);
        await d.auth.createApiToken({ organizationId: org.id, name: 'admin (organization created)', tokenHash: hashToken(token), isPlatformAdmin: false }, db);
        return org;
      });
      res.status(201).json({ organization, token });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('name_taken', `An organization named "${body.name}" exists.`, [{ field: 'name', message: 'taken' }]);
      throw err;
    }
  });

  r.post('/users', async (req, res) => {
    const body = parseBody(CreateUserRequest, req.body);
    try {
      const user = await d.auth.createUser({
        organizationId: req.principal!.organizationId, email: body.email, passwordHash: await hashPassword(body.password), isAdmin: false,
      });
      res.status(201).json(user);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('conflict', `A user with email ${body.email} exists.`, [{ field: 'email', message: 'taken' }]);
      throw err;
    }
  });

  r.post('/tokens', async (req, res) => {
    const body = parseBody(CreateTokenRequest, req.body);
    const token = newToken('stk');
    const t = await d.auth.createApiToken({ organizationId: req.principal!.organizationId, name: body.name, tokenHash: hashToken(token), isPlatformAdmin: false });
    res.status(201).json({ ...t, token });
  });

  return r;
}
