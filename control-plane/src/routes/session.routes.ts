import { Router } from 'express';
import { randomBytes } from 'node:crypto';
import type { Session } from '@strata/api';
import { mountOperation } from '../http/operation-router';
import { AppError, unauthorized } from '../errors';
import { SESSION_COOKIE } from '../auth/auth.middleware';
import type { AuthStore } from '../stores/auth.store';
import type { AuditStore } from '../stores/audit.store';
import { SIGN_IN, SIGN_IN_FAILED, SIGN_OUT } from '@strata/api';
import { hashToken, verifyPassword } from '../crypto/tokens';
import type { SignInThrottle } from '../auth/sign-in-throttle';

const TTL_SECONDS = 12 * 3600;

/** Console sign-in: an httpOnly cookie plus a CSRF token the page keeps in memory. */
const BASE = '/v1/session';

/**
 * Sign-ins, failed sign-ins (of an email that has an account: an unknown email belongs to no organization's
 * log) and sign-outs go into the user's organization's audit log.
 */
export function sessionRoutes(d: { auth: AuthStore; audit?: AuditStore; secureCookies: boolean; throttle: SignInThrottle }): Router {
  const r = Router();

  mountOperation(r, BASE, 'createSession', async ({ res, body }) => {
    // A locked email is refused before its password is looked at.
    await d.throttle.check(body.email);
    const user = await d.auth.findUserByEmail(body.email);
    // Verify even for unknown emails so timing does not reveal which exist.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
    if (!user || !ok) {
      const lockedNow = await d.throttle.failed(body.email);
      if (user && d.audit) {
        await d.audit.record({ organizationId: user.organizationId, actor: { type: 'user', id: user.id, name: user.email } }, { action: SIGN_IN_FAILED, targetId: null, status: 401, detail: { reason: 'wrong password', ...(lockedNow ? { locked: true } : {}) } });
      }
      throw new AppError(401, 'invalid_credentials', 'Wrong email or password', 'The email or password is not correct.');
    }
    await d.throttle.succeeded(body.email);
    const sid = randomBytes(32).toString('base64url');
    await d.auth.createSession({ idHash: hashToken(sid), userId: user.id, csrfToken: randomBytes(24).toString('base64url'), ttlSeconds: TTL_SECONDS });
    res.cookie(SESSION_COOKIE, sid, { httpOnly: true, sameSite: 'strict', secure: d.secureCookies, path: '/', maxAge: TTL_SECONDS * 1000 });
    const s = await d.auth.sessionPrincipal(hashToken(sid));
    const out: Session = { user: s!.user, organization: s!.organization, csrfToken: s!.principal.csrfToken!, scopes: s!.principal.scopes };
    await d.audit?.record(s!.principal, { action: SIGN_IN, targetId: null, status: 200, detail: {} });
    return out;
  });

  mountOperation(r, BASE, 'getSession', async ({ req, res }) => {
    const sid = req.cookies?.[SESSION_COOKIE] as string | undefined;
    const s = sid ? await d.auth.sessionPrincipal(hashToken(sid)) : null;
    if (!s) {
      // The console asks with ?optional=true: being signed out is an answer, not an error.
      if (req.query.optional === 'true') {
        res.set('Cache-Control', 'no-store');
        return null;
      }
      throw unauthorized('Not signed in.');
    }
    const out: Session = { user: s.user, organization: s.organization, csrfToken: s.principal.csrfToken!, scopes: s.principal.scopes };
    return out;
  });

  mountOperation(r, BASE, 'deleteSession', async ({ req, res }) => {
    const sid = req.cookies?.[SESSION_COOKIE] as string | undefined;
    if (sid) {
      const s = await d.auth.sessionPrincipal(hashToken(sid));
      await d.auth.deleteSession(hashToken(sid));
      if (s) await d.audit?.record(s.principal, { action: SIGN_OUT, targetId: null, status: 200, detail: {} });
    }
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  });

  return r;
}
