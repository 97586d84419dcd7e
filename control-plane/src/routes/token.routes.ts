import { Router } from 'express';
import { mountOperation } from '../http/operation-router';
import { expandScopes } from '../auth/permissions';
import { AppError, notFound, validationFailed } from '../errors';
import type { AuthStore, Principal } from '../stores/auth.store';
import { hashToken, newToken } from '../crypto/tokens';

/** Organization admins see and revoke every token of the organization; others only their own. */
const ownerFilter = (p: Principal) => (p.scopes.includes('admin') ? undefined : p.userId ?? '00000000-0000-0000-0000-000000000000');

/** API tokens: created with scopes within the caller's own, the secret shown once; listed with last use; revoked. */
export function tokenRoutes(d: { auth: AuthStore }): Router {
  const r = Router();

  mountOperation(r, '/v1/tokens', 'createToken', async ({ req, res, body }) => {
    const p = req.principal!;
    const beyond = expandScopes(body.scopes).filter((s) => !p.scopes.includes(s));
    if (beyond.length) {
      throw new AppError(403, 'forbidden', 'Forbidden', `You may grant only scopes you have (${p.scopes.join(', ') || 'none'}); not ${beyond.join(', ')}.`,
        [{ field: 'scopes', message: `beyond your role: ${beyond.join(', ')}` }]);
    }
    if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) throw validationFailed([{ field: 'expiresAt', message: 'must be in the future' }]);
    const secret = newToken('stk');
    const info = await d.auth.createApiToken({
      organizationId: p.organizationId, name: body.name, tokenHash: hashToken(secret), isPlatformAdmin: false,
      scopes: [...new Set(body.scopes)], userId: p.userId ?? null, expiresAt: body.expiresAt ?? null,
    });
    res.set('Cache-Control', 'no-store');
    return { ...info, token: secret };
  });

  mountOperation(r, '/v1/tokens', 'listTokens', async ({ req }) => ({ items: await d.auth.listTokens(req.principal!.organizationId, ownerFilter(req.principal!)) }));

  mountOperation(r, '/v1/tokens', 'getToken', async ({ req, id }) => {
    const t = (await d.auth.listTokens(req.principal!.organizationId, ownerFilter(req.principal!))).find((x) => x.id === id);
    if (!t) throw notFound('Token');
    return t;
  });

  mountOperation(r, '/v1/tokens', 'revokeToken', async ({ req, id }) => {
    const t = await d.auth.revokeToken(req.principal!.organizationId, id, ownerFilter(req.principal!));
    if (!t) throw notFound('Token');
    return t;
  });

  return r;
}
