import type { Request, RequestHandler } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError, forbidden, unauthorized } from '../errors';
import type { AuthStore, Principal } from '../stores/auth.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import { hashToken } from '../crypto/tokens';
import { expandScopes } from './permissions';

export const SESSION_COOKIE = 'strata_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    node?: NodeRow;
  }
}

function bearer(req: Pick<Request, 'headers'>): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  if (!m) throw unauthorized('The Authorization header must be `Bearer <token>`.');
  return m[1]!;
}

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export interface AuthDeps {
  auth: AuthStore;
  /** Optional operator-provided admin token (STRATA_ADMIN_TOKEN) and the org it acts for. */
  envAdmin?: { token: string; organizationId: string };
}

/** Users and API clients: Bearer token, or session cookie plus CSRF header on changes. */
export const requireUser = (deps: AuthDeps): RequestHandler => Object.assign(async (req: Request, _res: unknown, next: (err?: unknown) => void) => {
  const token = bearer(req);
  if (token) {
    if (deps.envAdmin && sameSecret(token, deps.envAdmin.token)) {
      req.principal = {
        organizationId: deps.envAdmin.organizationId, isPlatformAdmin: true, scopes: expandScopes(['admin']),
        actor: { type: 'operator', id: null, name: 'STRATA_ADMIN_TOKEN' },
      };
      return next();
    }
    const p = await deps.auth.principalForToken(hashToken(token));
    if (!p) throw unauthorized('The API token is not valid.');
    req.principal = p;
    return next();
  }
  const sid = req.cookies?.[SESSION_COOKIE] as string | undefined;
  if (sid) {
    const s = await deps.auth.sessionPrincipal(hashToken(sid));
    if (s) {
      if (!SAFE_METHODS.has(req.method) && req.get('x-csrf-token') !== s.principal.csrfToken) {
        throw new AppError(403, 'csrf_failed', 'CSRF check failed', 'Changes from the console must carry the X-CSRF-Token header of the session.');
      }
      req.principal = s.principal;
      return next();
    }
  }
  throw unauthorized();
}, { authStep: 'requireUser' }) as RequestHandler;

/**
 * Who the request's credentials name now, or null: signed out, session
 * expired, token revoked or expired. For long-lived responses (event
 * streams) that must stop when the credentials do.
 */
export async function currentPrincipal(deps: AuthDeps, req: Pick<Request, 'headers' | 'cookies'>): Promise<Principal | null> {
  const view = { headers: req.headers, cookies: req.cookies, method: 'GET', get: () => undefined } as unknown as Request;
  let valid = false;
  try {
    await requireUser(deps)(view, {} as never, () => { valid = true; });
  } catch {
    return null;
  }
  return valid ? (view.principal ?? null) : null;
}

export const requirePlatformAdmin: RequestHandler = (req, _res, next) => {
  if (!req.principal?.isPlatformAdmin) throw forbidden('Only a platform administrator may do this.');
  next();
};

/** Agents: the per-node credential issued at registration. */
/** The node whose credential the request carries as its Bearer token, or a 401 (Express routes and the agent fast lane). */
export async function authenticateNode(req: Pick<Request, 'headers'>, nodes: NodeStore): Promise<NodeRow> {
  const token = bearer(req);
  if (!token) throw unauthorized('Agents must send their node credential as a Bearer token.');
  const node = await nodes.byCredential(hashToken(token));
  if (!node) throw unauthorized('Unknown or revoked node credential; register the agent again with a new join token.');
  return node;
}

export const requireNode = (nodes: NodeStore): RequestHandler => Object.assign(async (req: Request, _res: unknown, next: () => void) => {
  req.node = await authenticateNode(req, nodes);
  next();
}, { authStep: 'requireNode' }) as RequestHandler;
