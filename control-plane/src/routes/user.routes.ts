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
      if (!isUniqueViolation(err)) throw err;
      // Emails are unique across the installation (sign-in is by email). Only a user of the caller's
      // own organization is named; another organization's user is not disclosed, so the answer is
      // the same 409 with a message that does not say where the address is used.
      const existing = await d.auth.findUserByEmail(body.email);
      const mine = existing?.organizationId === req.principal!.organizationId;
      throw conflict('conflict', mine ? `Your organization already has a user with email ${body.email}.` : 'This email address cannot be used; choose another.',
        [{ field: 'email', message: mine ? 'taken' : 'unavailable' }]);
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
