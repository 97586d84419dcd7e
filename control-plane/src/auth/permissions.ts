import type { RequestHandler } from 'express';
import { ROLE_SCOPES, SCOPES, type Role, type Scope } from '@strata/api';
import { forbidden } from '../errors';

/**
 * What a route requires: a scope, or `self` for managing one's own tokens
 * (any signed-in user; an API token needs the `admin` scope, so a leaked
 * narrow token cannot mint longer-lived ones).
 */
export type RouteScope = Scope | 'self';

/** `admin` implies every scope. */
export const expandScopes = (scopes: readonly Scope[]): Scope[] => (scopes.includes('admin') ? [...SCOPES] : [...new Set(scopes)]);

/** What a token may do: its scopes, bounded by its owner's role (owner-less tokens act as organization admins). */
export function effectiveScopes(tokenScopes: readonly Scope[] | null, role: Role): Scope[] {
  const byRole = ROLE_SCOPES[role];
  const wanted = tokenScopes ? expandScopes(tokenScopes) : [...SCOPES];
  return SCOPES.filter((s) => wanted.includes(s) && byRole.includes(s));
}

export function allows(p: { scopes: readonly Scope[]; actor: { type: string } }, required: RouteScope): boolean {
  if (required === 'self') return p.actor.type !== 'token' || p.scopes.includes('admin');
  return p.scopes.includes(required);
}

/** Declared next to each route: 403 unless the principal's role and token both allow `required`. */
export const requireScope = (required: RouteScope): RequestHandler => {
  const mw: RequestHandler = (req, _res, next) => {
    const p = req.principal;
    if (!p || !allows(p, required)) {
      const what = required === 'self' ? 'a signed-in user or a token with the admin scope' : `the ${required} scope`;
      throw forbidden(`This needs ${what}; this ${p?.actor.type ?? 'caller'} has ${p?.scopes.join(', ') || 'no scopes'}.`);
    }
    next();
  };
  return Object.assign(mw, { requiredScope: required });
};

/** The scope a route declared (read by the route table test). */
export const declaredScope = (handler: unknown): RouteScope | undefined => (handler as { requiredScope?: RouteScope }).requiredScope;
