import { Router } from 'express';
import { CreateUserRequest, UpdateUserRequest, type UserList } from '@strata/api';
import { parseBody, parseUuid } from '../http/validate';
import { requireScope } from '../auth/permissions';
import { conflict, notFound } from '../errors';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import { hashPassword } from '../crypto/tokens';

/** Users of the caller's organization and their roles (organization admins). */
export function userRoutes(d: { auth: AuthStore }): Router {
  const r = Router();

  r.get('/', requireScope('admin'), async (req, res) => {
    const out: UserList = { items: await d.auth.listUsers(req.principal!.organizationId) };
    res.json(out);
  });

  r.post('/', requireScope('admin'), async (req, res) => {
    const body = parseBody(CreateUserRequest, req.body);
    try {
      const user = await d.auth.createUser({
        organizationId: req.principal!.organizationId, email: body.email, passwordHash: await hashPassword(body.password),
        isAdmin: false, role: body.role ?? 'member',
      });
      res.status(201).json(user);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('conflict', `A user with email ${body.email} exists.`, [{ field: 'email', message: 'taken' }]);
      throw err;
    }
  });

  r.patch('/:id', requireScope('admin'), async (req, res) => {
    const id = parseUuid(req.params.id, 'User');
    const body = parseBody(UpdateUserRequest, req.body);
    const user = await d.auth.setUserRole(req.principal!.organizationId, id, body.role);
    if (!user) throw notFound('User');
    if (user === 'last_admin') throw conflict('invalid_state', 'The organization must keep at least one admin.', [{ field: 'role', message: 'last admin' }]);
    res.json(user);
  });

  return r;
}
