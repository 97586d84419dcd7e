import { Router } from 'express';
import { mountOperation } from '../http/operation-router';
import { conflict, notFound } from '../errors';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import { hashPassword } from '../crypto/tokens';

/** Users of the caller's organization and their roles (organization admins); declared in OPERATION_TABLE. */
export function userRoutes(d: { auth: AuthStore }): Router {
  const r = Router();

  mountOperation(r, '/v1/users', 'listUsers', async ({ req }) => ({ items: await d.auth.listUsers(req.principal!.organizationId) }));

  mountOperation(r, '/v1/users', 'createUser', async ({ req, body }) => {
    try {
      return await d.auth.createUser({
        organizationId: req.principal!.organizationId, email: body.email, passwordHash: await hashPassword(body.password),
        isAdmin: false, role: body.role ?? 'member',
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('conflict', `A user with email ${body.email} exists.`, [{ field: 'email', message: 'taken' }]);
      throw err;
    }
  });

  mountOperation(r, '/v1/users', 'updateUser', async ({ req, body, id }) => {
    const user = await d.auth.setUserRole(req.principal!.organizationId, id, body.role);
    if (!user) throw notFound('User');
    if (user === 'last_admin') throw conflict('invalid_state', 'The organization must keep at least one admin.', [{ field: 'role', message: 'last admin' }]);
    return user;
  });

  return r;
}
