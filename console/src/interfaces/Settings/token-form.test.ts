import { describe, expect, it } from 'vitest';
import { grantableScopes, validateTokenForm } from './token-form';

describe('token form', () => {
  it('offers only the scopes the role grants', () => {
    expect(grantableScopes(['clusters:read'])).toEqual(['clusters:read']);
    expect(grantableScopes(['admin', 'clusters:read', 'clusters:write', 'benchmarks:run'])).toHaveLength(4);
  });

  it('names the bad field', () => {
    expect(validateTokenForm({ name: ' ', scopes: [], expiresInDays: 'x' }).errors).toEqual({
      name: expect.any(String), scopes: expect.any(String), expiresInDays: expect.any(String),
    });
    expect(validateTokenForm({ name: 'ci\u0000', scopes: ['clusters:read'], expiresInDays: '' }).errors.name).toMatch(/control/);
  });

  it('builds the request with an expiry in days', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(validateTokenForm({ name: ' ci ', scopes: ['clusters:read'], expiresInDays: '30' }, now).request).toEqual({
      name: 'ci', scopes: ['clusters:read'], expiresAt: '2026-01-31T00:00:00.000Z',
    });
    expect(validateTokenForm({ name: 'ci', scopes: ['admin'], expiresInDays: '' }, now).request).toEqual({ name: 'ci', scopes: ['admin'] });
  });
});
