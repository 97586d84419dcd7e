import { CONTROL_CHARACTERS, SCOPES, type CreateTokenRequest, type Scope } from '@strata/api';

export const SCOPE_LABELS: Record<Scope, string> = {
  'clusters:read': 'Read clusters, metrics and nodes',
  'clusters:write': 'Create, change and delete clusters',
  'benchmarks:run': 'Run benchmarks',
  admin: 'Everything, including users, tokens and the audit log',
};

/** Scopes the signed-in user may put on a token: only those the role grants. */
export const grantableScopes = (mine: readonly Scope[]): Scope[] => SCOPES.filter((s) => mine.includes(s));

export interface TokenForm { name: string; scopes: Scope[]; expiresInDays: string }

/** Client-side checks mirroring the API's (the server checks again and names the field). */
export function validateTokenForm(f: TokenForm, now = Date.now()): { errors: Partial<Record<keyof TokenForm, string>>; request?: CreateTokenRequest } {
  const errors: Partial<Record<keyof TokenForm, string>> = {};
  const name = f.name.trim();
  if (!name) errors.name = 'Give the token a name, e.g. "terraform-ci".';
  else if (name.length > 60) errors.name = 'At most 60 characters.';
  else if (CONTROL_CHARACTERS.test(name)) errors.name = 'No control characters.';
  if (!f.scopes.length) errors.scopes = 'Pick at least one scope.';
  let expiresAt: string | undefined;
  if (f.expiresInDays.trim()) {
    const days = Number(f.expiresInDays);
    if (!Number.isInteger(days) || days < 1 || days > 3650) errors.expiresInDays = 'Whole days from 1 to 3650, or empty for no expiry.';
    else expiresAt = new Date(now + days * 86_400_000).toISOString();
  }
  if (Object.keys(errors).length) return { errors };
  return { errors, request: { name, scopes: f.scopes, ...(expiresAt ? { expiresAt } : {}) } };
}
