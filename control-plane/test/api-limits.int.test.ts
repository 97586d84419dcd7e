/**
 * The API's limits on a real control plane and PostgreSQL: sign-in lock-out after repeated wrong
 * passwords, per-token and per-address request rates (429 with Retry-After, nothing done), and the
 * per-user cap on open event streams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiToken, AuditList, Problem } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';

let api: TestApi;
let url: string;
let admin: { email: string; password: string };
let cleanup: () => Promise<void>;

const LOCK_MS = 2000;
beforeAll(async () => {
  let stack;
  ({ stack, api, cleanup } = await testStack('127.0.58', {
    nodes: 0,
    extraEnv: {
      STRATA_SIGN_IN_MAX_FAILURES: '3', STRATA_SIGN_IN_LOCK_MS: String(LOCK_MS),
      STRATA_RATE_LIMIT_PER_TOKEN: '20', STRATA_RATE_LIMIT_PER_IP: '400', STRATA_RATE_LIMIT_WINDOW_MS: '5000',
      STRATA_MAX_STREAMS_PER_USER: '2',
    },
  }));
  url = stack.url;
  admin = { email: stack.adminEmail, password: stack.adminPassword };
});
afterAll(async () => cleanup?.());

const signIn = (email: string, password: string) =>
  fetch(`${url}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
const problem = async (r: Response) => {
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await r.json()) as Problem;
};
/** A token of its own for each check, so one check's budget does not spend another's. */
async function newToken(name: string): Promise<string> {
  const r = await api.createToken({ name, scopes: ['admin'] });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (r.body as ApiToken).token;
}

describe('API limits', () => {
  it('locks an email after repeated wrong passwords, right password or not, and lets it in after the lock', async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(admin.email, 'wrong-password')).status).toBe(401);
    const locked = await signIn(admin.email, admin.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await problem(locked)).code).toBe('sign_in_locked');
    // An email without an account locks the same way: a lock says nothing about which emails exist.
    for (let i = 0; i < 3; i++) expect((await signIn('nobody@example.com', 'wrong-password')).status).toBe(401);
    expect((await problem(await signIn('nobody@example.com', 'wrong-password'))).code).toBe('sign_in_locked');
    // The audit log records the failure that locked the account.
    const audit = await api.call<AuditList>('GET', '/v1/audit?limit=20');
    const failures = audit.body.items.filter((e) => e.action === 'SIGN-IN-FAILED');
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures.some((e) => (e.detail as { locked?: boolean }).locked === true)).toBe(true);
    await new Promise((r) => setTimeout(r, LOCK_MS + 200));
    const back = await signIn(admin.email, admin.password);
    expect(back.status).toBe(200);
    // A success clears the count: two more failures do not lock.
    for (let i = 0; i < 2; i++) expect((await signIn(admin.email, 'wrong-password')).status).toBe(401);
    expect((await signIn(admin.email, admin.password)).status).toBe(200);
  });

  it('answers 429 rate_limited with Retry-After once a token has used its window, and does nothing of that request', async () => {
    const token = await newToken('hammer');
    const other = await newToken('bystander');
    const call = (t: string, method: string, path: string, body?: unknown) => fetch(`${url}${path}`, {
      method, headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
    });
    let first429: Response | undefined;
    let ok = 0;
    for (let i = 0; i < 40 && !first429; i++) {
      const r = await call(token, 'GET', '/v1/clusters');
      if (r.status === 429) first429 = r;
      else {
        expect(r.status).toBe(200);
        ok++;
      }
    }
    expect(first429, 'no 429 within 40 requests').toBeDefined();
    expect(ok).toBeLessThanOrEqual(20);
    expect(Number(first429!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(first429!.headers.get('ratelimit-policy')).toContain('q=20');
    expect((await problem(first429!)).code).toBe('rate_limited');
    // A change over the limit is not made.
    const create = await call(token, 'POST', '/v1/clusters', { name: 'over-the-limit', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 });
    expect(create.status).toBe(429);
    const list = await (await call(other, 'GET', '/v1/clusters')).json() as { items: { name: string }[] };
    expect(list.items.map((c) => c.name)).not.toContain('over-the-limit');
    // Another token of the same organization is not held back.
    expect((await call(other, 'GET', '/v1/clusters')).status).toBe(200);
  });

  it('caps the event streams one caller holds open', async () => {
    const token = await newToken('watcher');
    const open = () => {
      const ac = new AbortController();
      return { ac, res: fetch(`${url}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal }) };
    };
    const a = open();
    const b = open();
    expect((await a.res).status).toBe(200);
    expect((await b.res).status).toBe(200);
    const c = await open().res;
    expect(c.status).toBe(429);
    expect((await problem(c)).code).toBe('too_many_streams');
    a.ac.abort();
    // The server notices the closed stream and frees its place.
    await expect.poll(async () => {
      const d = open();
      const r = await d.res;
      d.ac.abort();
      return r.status;
    }, { timeout: 5000, interval: 200 }).toBe(200);
    b.ac.abort();
  });

  it('limits an address across callers, before authentication', async () => {
    let n = 0;
    let last: Response | undefined;
    while (n < 1000) {
      last = await fetch(`${url}/v1/clusters`);
      n++;
      if (last.status === 429) break;
      expect(last.status).toBe(401);
    }
    expect(last!.status).toBe(429);
    const p = await problem(last!);
    expect(p.code).toBe('rate_limited');
    expect(p.detail).toMatch(/from this address/);
    // 400 per 5 s window: the window the earlier checks opened may end during the loop, so at most two windows' worth.
    expect(n).toBeLessThanOrEqual(801);
    expect(Number(last!.headers.get('retry-after'))).toBeLessThanOrEqual(5);
  });
});
