import { Router } from 'express';
import { CreateTokenRequest, type ApiToken, type ApiTokenList } from '@strata/api';
import { parseBody, parseUuid } from '../http/validate';
import { expandScopes, requireScope } from '../auth/permissions';
import { AppError, notFound, validationFailed } from '../errors';
import type { AuthStore, Principal } from '../stores/auth.store';
import { hashToken, newToken } from '../crypto/tokens';

/** Organization admins see and revoke every token of the organization; others only their own. */
const ownerFilter = (p: Principal) => (p.scopes.includes('admin') ? undefined : p.userId ?? '00000000-0000-0000-0000-000000000000');

/** API tokens: created with scopes within the caller's own, the secret shown once; listed with last use; revoked. */
export function tokenRoutes(d: { auth: AuthStore }): Router {
  const r = Router();

  r.post('/', requireScope('self'), async (req, res) => {
    const body = parseBody(CreateTokenRequest, req.body);
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
    const out: ApiToken = { ...info, token: secret };
    res.status(201).set('Cache-Control', 'no-store').json(out);
  });

  r.get('/', requireScope('self'), async (req, res) => {
    const out: ApiTokenList = { items: await d.auth.listTokens(req.principal!.organizationId, ownerFilter(req.principal!)) };
    res.json(out);
  });

  r.get('/:id', requireScope('self'), async (req, res) => {
    const id = parseUuid(req.params.id, 'Token');
    const t = (await d.auth.listTokens(req.principal!.organizationId, ownerFilter(req.principal!))).find((x) => x.id === id);
    if (!t) throw notFound('Token');
    res.json(t);
  });

  r.delete('/:id', requireScope('self'), async (req, res) => {
    const t = await d.auth.revokeToken(req.principal!.organizationId, parseUuid(req.params.id, 'Token'), ownerFilter(req.principal!));
    if (!t) throw notFound('Token');
    res.json(t);
  });

  return r;
}
