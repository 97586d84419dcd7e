import { describe, expect, it } from 'vitest';
import { freeText, safeString } from './common';
import { CreateClusterRequest } from './clusters';
import { CreateTokenRequest, CreateUserRequest, LoginRequest } from './auth';
import { ClusterMetricsQuery } from './metrics';

const fieldsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.path.join('.'));

describe('safeString', () => {
  it.each(['\u0000', 'a\u0000b', 'line\nbreak', 'tab\there', 'esc\u001b[31m', 'del\u007f'])('rejects %j', (s) => {
    const r = safeString().safeParse(s);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/control characters/);
  });

  it.each(['plain', 'ünïcödé ✓', 'emoji 🚀', 'quotes "\' and \\ backslash', ''])('accepts %j', (s) => {
    expect(safeString().safeParse(s).success).toBe(true);
  });

  it.each(['\ud800', 'x\udc00', 'lo\udbffw'])('rejects the lone surrogate in %j', (s) => {
    const r = safeString().safeParse(s);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/surrogate/);
  });

  it('freeText allows tab and line breaks (multi-line error messages) and nothing else', () => {
    expect(freeText().safeParse('ERR first line\n\tsecond\r\n').success).toBe(true);
    for (const bad of ['a\u0000', 'esc\u001b[31m', 'del\u007f', 'bell\u0007', '\ud800']) expect(freeText().safeParse(bad).success).toBe(false);
  });

  it('keeps working with further checks chained after it', () => {
    expect(safeString().min(3).safeParse('ab').success).toBe(false);
    expect(safeString().min(3).safeParse('a\u0000b').success).toBe(false);
  });
});

describe('request schemas name the field holding a control character', () => {
  it.each([
    [LoginRequest, { email: 'a\u0000@x.io', password: 'pw' }, 'email'],
    [LoginRequest, { email: 'a@x.io', password: 'p\u0000w' }, 'password'],
    [CreateTokenRequest, { name: 'ci\u0000', scopes: ['clusters:read'] }, 'name'],
    [CreateUserRequest, { email: 'new@x.io', password: 'longenough\u0000' }, 'password'],
    [CreateClusterRequest, { name: 'ok\nname', shards: 1, replicasPerShard: 0 }, 'name'],
    [ClusterMetricsQuery, { metric: 'ops\u0000' }, 'metric'],
  ] as const)('%#: %j -> %s', (schema, input, field) => {
    expect(fieldsOf((schema as any).safeParse(input))).toContain(field);
  });
});
