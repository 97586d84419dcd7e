import { describe, expect, it } from 'vitest';
import { allows, effectiveScopes, expandScopes } from './permissions';

describe('effectiveScopes', () => {
  it('admin implies every scope', () => {
    expect(expandScopes(['admin'])).toEqual(['clusters:read', 'clusters:write', 'benchmarks:run', 'admin']);
  });
  it('bounds a token by its owner role', () => {
    expect(effectiveScopes(['admin'], 'viewer')).toEqual(['clusters:read']);
    expect(effectiveScopes(['clusters:write'], 'viewer')).toEqual([]);
    expect(effectiveScopes(['admin'], 'member')).toEqual(['clusters:read', 'clusters:write', 'benchmarks:run']);
    expect(effectiveScopes(['clusters:read', 'benchmarks:run'], 'admin')).toEqual(['clusters:read', 'benchmarks:run']);
  });
  it('a session (no token) gets its role', () => {
    expect(effectiveScopes(null, 'member')).toEqual(['clusters:read', 'clusters:write', 'benchmarks:run']);
  });
});

describe('allows', () => {
  it('lets users manage their tokens, but tokens only with admin', () => {
    expect(allows({ scopes: ['clusters:read'], actor: { type: 'user' } }, 'self')).toBe(true);
    expect(allows({ scopes: ['clusters:read'], actor: { type: 'token' } }, 'self')).toBe(false);
    expect(allows({ scopes: expandScopes(['admin']), actor: { type: 'token' } }, 'self')).toBe(true);
    expect(allows({ scopes: ['clusters:read'], actor: { type: 'token' } }, 'clusters:write')).toBe(false);
  });
});
