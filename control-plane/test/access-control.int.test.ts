/**
 * Issue 11: scoped API tokens and roles (matrix: every operation in openapi.json x scope x role),
 * another organization's token 404 on every resource, the audit log, and bad input (NUL and
 * control characters, oversized bodies) never reaching the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES, type ApiToken, type ApiTokenList, type AuditList, type Problem, type Role, type Scope, type User } from '@strata/api';
import { loopbackAddress } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';

let api: TestApi;
let url: string;
let cleanup: () => Promise<void>;
let clusterId: string;
let operationId: string;
let nodeId: string;
let bootstrapAdmin: { email: string; password: string };
/** STRATA_ADMIN_TOKEN: the operator's token (platform admin, every scope). */
const OPERATOR_TOKEN = 'operator-chosen-admin-token-matrix';

beforeAll(async () => {
  let stack;
  ({ stack, api, cleanup } = await testStack('127.0.50', { nodes: 1, adminToken: OPERATOR_TOKEN }));
  url = stack.url;
  bootstrapAdmin = { email: stack.adminEmail, password: stack.adminPassword };
  const c = await api.createCluster({ name: 'matrix', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 });
  expect(c.status).toBe(202);
  clusterId = c.body.cluster.id;
  operationId = c.body.operation.id;
  nodeId = (await api.nodes()).body.items[0]!.id;
});
afterAll(async () => cleanup?.());

const expectProblem = (r: { status: number; body: unknown; headers: Headers }, status: number, code: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect((r.body as Problem).code).toBe(code);
  return r.body as Problem;
};

/** A signed-in console user: session cookie plus CSRF header, like the console sends. */
class SessionClient {
  constructor(readonly cookie: string, readonly csrf: string) {}
  static async signIn(email: string, password: string): Promise<SessionClient> {
    const res = await fetch(`${url}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const body = (await res.json()) as { csrfToken: string };
    return new SessionClient(cookie, body.csrfToken);
  }
  async call<T = unknown>(method: string, path: string, body?: unknown) {
    const res = await fetch(url + path, {
      method,
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text || null) as T, headers: res.headers };
  }
}

type Caller = {
  label: string; role: Role; scopes: Scope[] | null;
  /** A platform administrator's session or token (what the token can do is still bounded by its scopes). */
  platformAdmin: boolean;
  /** The credentials as request headers (for the event streams, opened with a raw fetch). */
  headers: Record<string, string>;
  call: (m: string, p: string, b?: unknown) => Promise<{ status: number; body: any; headers: Headers }>;
};

async function newUser(email: string, role: Role): Promise<User> {
  const r = await api.createUser({ email, password: 'correct-horse-battery', role });
  expect(r.status).toBe(201);
  expect(r.body.role).toBe(role);
  return r.body;
}

const randomId = () => crypto.randomUUID();

/** Every operation a user or API token can call, read from the served openapi.json, with its declared scope. */
async function operations() {
  const doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: { bearer: string[] }[]; summary: string; responses: Record<string, { description: string }> }>>;
  };
  const ops: { method: string; path: string; scope: Scope | 'self'; platformAdmin: boolean }[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const scope = op.security?.[0]?.bearer?.[0];
      if (!path.startsWith('/v1/') || path.startsWith('/v1/agent')) continue;
      if (path === '/v1/session') continue; // signing in needs no credentials
      expect(scope, `${method.toUpperCase()} ${path} declares no scope in openapi.json`).toBeTruthy();
      ops.push({ method: method.toUpperCase(), path, scope: scope as Scope | 'self', platformAdmin: op.responses['403']?.description === 'Not a platform admin' });
    }
  }
  return ops;
}

/** A harmless request for an operation: reads hit real resources, changes hit nothing (unknown id, or an empty body). */
function harmless(op: { method: string; path: string }): { path: string; body?: unknown } {
  const read = op.method === 'GET';
  let path = op.path.replace('{index}', '0');
  if (path.includes('{id}')) {
    const id = !read ? randomId()
      : path.startsWith('/v1/clusters') ? clusterId
      : path.startsWith('/v1/operations') ? operationId
      : path.startsWith('/v1/nodes') ? nodeId
      : randomId();
    path = path.replace('{id}', id);
  }
  if (path.endsWith('/metrics') && path.startsWith('/v1/clusters')) path += '?metric=ops';
  if (read) return { path };
  return { path, body: op.method === 'PATCH' && op.path.startsWith('/v1/users') ? { role: 'viewer' } : {} };
}

async function statusOf(c: Caller, op: { method: string; path: string }): Promise<number> {
  const h = harmless(op);
  return (await c.call(op.method, h.path, h.body)).status;
}

/** A server-sent event stream's status: the headers arrive before any event, then the request is aborted. */
async function streamStatus(c: Caller, op: { method: string; path: string }): Promise<number> {
  const ctl = new AbortController();
  const res = await fetch(url + harmless(op).path, { headers: c.headers, signal: ctl.signal });
  const status = res.status;
  ctl.abort();
  return status;
}

describe('scoped tokens and roles', () => {
  const callers: Caller[] = [];

  beforeAll(async () => {
    const addSession = async (label: string, role: Role, platformAdmin: boolean, email: string, password: string) => {
      const session = await SessionClient.signIn(email, password);
      const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
      callers.push({ label: `${label} session`, role, scopes: null, platformAdmin, headers, call: (m, p, b) => session.call(m, p, b) });
      for (const scope of ROLE_SCOPES[role]) {
        const t = await session.call<ApiToken>('POST', '/v1/tokens', { name: `${label}-${scope}`.replace(/[^a-z0-9:-]/g, '-'), scopes: [scope] });
        expect(t.status).toBe(201);
        expect(t.body.token).toMatch(/^stk_/);
        addToken(`${label} token ${scope}`, role, [scope], platformAdmin, t.body.token);
      }
    };
    const addToken = (label: string, role: Role, scopes: Scope[] | null, platformAdmin: boolean, token: string) => {
      const client = new TestApi(url, token);
      callers.push({ label, role, scopes, platformAdmin, headers: { authorization: `Bearer ${token}` }, call: (m, p, b) => client.call(m, p, b) });
    };
    for (const role of ['viewer', 'member', 'admin'] as Role[]) {
      await newUser(`${role}@matrix.test`, role);
      await addSession(role, role, false, `${role}@matrix.test`, 'correct-horse-battery');
    }
    // The platform administrator (the bootstrap user), its session and a token of each scope: only
    // the session and the admin-scoped token pass the platform-admin routes.
    await addSession('platform-admin', 'admin', true, bootstrapAdmin.email, bootstrapAdmin.password);
    // The operator's STRATA_ADMIN_TOKEN, and an owner-less organization token (acts as an organization admin, not a platform admin).
    addToken('operator STRATA_ADMIN_TOKEN', 'admin', ['admin'], true, OPERATOR_TOKEN);
    const org = await api.createOrganization('matrix-ownerless');
    expect(org.status).toBe(201);
    addToken('owner-less organization token', 'admin', ['admin'], false, org.body.token);
  });

  it('every operation x scope x role: allowed exactly when both the role and the token grant its scope', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(20);
    expect(callers.length).toBeGreaterThanOrEqual(16);
    const mismatches: string[] = [];
    const tally = { allowed: 0, refused: 0 };
    const streamsChecked = new Set<string>();
    const platformAdminAllowed = new Set<string>();
    for (const op of ops) {
      for (const c of callers) {
        const role = ROLE_SCOPES[c.role];
        const granted = c.scopes === null ? [...role] : role.filter((s) => c.scopes!.includes('admin') || c.scopes!.includes(s));
        // A token acts as a platform admin only with the admin scope (auth.store principalForToken).
        const actsAsPlatformAdmin = c.platformAdmin && (c.scopes === null || granted.includes('admin'));
        const allowed = (op.platformAdmin ? actsAsPlatformAdmin : true)
          && (op.scope === 'self' ? (c.scopes === null || granted.includes('admin')) : granted.includes(op.scope));
        const status = op.path.endsWith('/stream') ? await streamStatus(c, op) : await statusOf(c, op);
        const ok = allowed ? ![401, 403].includes(status) && status < 500 : status === 403;
        if (!ok) mismatches.push(`${op.method} ${op.path} as ${c.label}: got ${status}, expected ${allowed ? 'allowed' : '403'}`);
        tally[allowed ? 'allowed' : 'refused']++;
        if (op.path.endsWith('/stream')) streamsChecked.add(op.path);
        if (op.platformAdmin && allowed) platformAdminAllowed.add(`${op.method} ${op.path}`);
      }
    }
    // The matrix really covers the streams, the platform-admin routes' allowed side, and both outcomes.
    expect([...streamsChecked].sort()).toEqual(ops.filter((o) => o.path.endsWith('/stream')).map((o) => o.path).sort());
    expect(streamsChecked.size).toBeGreaterThanOrEqual(3);
    expect(platformAdminAllowed.size).toBe(ops.filter((o) => o.platformAdmin).length);
    expect(platformAdminAllowed.size).toBeGreaterThanOrEqual(4);
    expect(tally.allowed).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
    expect(mismatches).toEqual([]);
  });

  it('the live metrics stream needs clusters:read', async () => {
    const viewerToken = await api.createToken({ name: 'stream-read', scopes: ['clusters:read'] });
    const benchToken = await api.createToken({ name: 'stream-bench', scopes: ['benchmarks:run'] });
    const open = async (token: string) => {
      const ctl = new AbortController();
      const res = await fetch(`${url}/v1/clusters/${clusterId}/metrics/stream`, { headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
      const status = res.status;
      ctl.abort();
      return status;
    };
    expect(await open(viewerToken.body.token)).toBe(200);
    expect(await open(benchToken.body.token)).toBe(403);
  });

  it('a token cannot get scopes beyond its creator\'s role, and a demotion bounds existing tokens at once', async () => {
    const user = await newUser('demote@matrix.test', 'member');
    const session = await SessionClient.signIn('demote@matrix.test', 'correct-horse-battery');
    const p = expectProblem(await session.call('POST', '/v1/tokens', { name: 'too-much', scopes: ['admin'] }), 403, 'forbidden');
    expect(p.errors?.[0]?.field).toBe('scopes');
    const t = await session.call<ApiToken>('POST', '/v1/tokens', { name: 'writer', scopes: ['clusters:write', 'clusters:read'] });
    expect(t.status).toBe(201);
    const writer = new TestApi(url, t.body.token);
    expectProblem(await writer.call('POST', '/v1/clusters', {}), 400, 'validation_failed');

    expect((await api.setRole(user.id, 'viewer')).status).toBe(200);
    expectProblem(await writer.call('POST', '/v1/clusters', {}), 403, 'forbidden');
    expect((await writer.listClusters()).status).toBe(200);
    // And the old session is bounded too.
    expectProblem(await session.call('POST', '/v1/clusters', {}), 403, 'forbidden');

    expect((await api.setRole(user.id, 'member')).status).toBe(200);
    expectProblem(await writer.call('POST', '/v1/clusters', {}), 400, 'validation_failed');
  });

  it('lists tokens with last use, revokes them (401 at once), and keeps the last admin', async () => {
    const created = await api.createToken({ name: 'ci', scopes: ['clusters:read'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const ci = new TestApi(url, created.body.token);
    let listed = (await api.listTokens()).body.items.find((t) => t.id === created.body.id)!;
    expect(listed).toMatchObject({ name: 'ci', scopes: ['clusters:read'], lastUsedAt: null, revokedAt: null });
    expect(listed).not.toHaveProperty('token');
    expect((await ci.listClusters()).status).toBe(200);
    listed = (await api.listTokens()).body.items.find((t) => t.id === created.body.id)!;
    expect(listed.lastUsedAt).not.toBeNull();

    const revoked = await api.revokeToken(created.body.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expectProblem(await ci.listClusters(), 401, 'unauthorized');

    // A member sees only their own tokens and cannot revoke someone else's.
    const member = await SessionClient.signIn('member@matrix.test', 'correct-horse-battery');
    const mine = (await member.call<ApiTokenList>('GET', '/v1/tokens')).body.items;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((t) => t.createdBy === 'member@matrix.test')).toBe(true);
    const adminsToken = (await api.listTokens()).body.items.find((t) => t.createdBy === 'admin@matrix.test')!;
    expectProblem(await member.call('DELETE', `/v1/tokens/${adminsToken.id}`), 404, 'not_found');

    // Expired tokens stop working; a past expiry is refused.
    expectProblem(await api.createToken({ name: 'past', scopes: ['clusters:read'], expiresAt: '2020-01-01T00:00:00Z' }), 400, 'validation_failed');
    const soon = await api.createToken({ name: 'soon', scopes: ['clusters:read'], expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect(soon.status).toBe(201);
    expect((await new TestApi(url, soon.body.token).listClusters()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expectProblem(await new TestApi(url, soon.body.token).listClusters(), 401, 'unauthorized');

    // The only admin user cannot be demoted (the bootstrap admin is one; demote the other first).
    const users = (await api.listUsers()).body.items;
    const admins = users.filter((u) => u.role === 'admin');
    for (const u of admins.slice(1)) expect((await api.setRole(u.id, 'member')).status).toBe(200);
    expectProblem(await api.setRole(admins[0]!.id, 'viewer'), 409, 'invalid_state');
    for (const u of admins.slice(1)) expect((await api.setRole(u.id, 'admin')).status).toBe(200);
  });

  it('another organization\'s token gets 404 on every resource of this one', async () => {
    const BENCH = { workload: 'ycsb-c', recordCount: 200, durationSec: 1, warmupSec: 0, connections: 2 };
    const org = await api.createOrganization('other-co');
    expect(org.status).toBe(201);
    const other = new TestApi(url, org.body.token);
    const user = (await api.listUsers()).body.items.find((u) => u.email === 'viewer@matrix.test')!;
    const token = (await api.listTokens()).body.items[0]!;
    // A benchmark of this organization (a tiny one): another organization must not see or cancel it.
    await api.waitForPhase(clusterId, 'ready');
    const bench = await api.call<{ id: string }>('POST', `/v1/clusters/${clusterId}/benchmarks`, BENCH);
    expect(bench.status, JSON.stringify(bench.body)).toBe(202);
    // And a backup of it.
    const backup = await api.call<{ backup: { id: string } }>('POST', `/v1/clusters/${clusterId}/backups`, {});
    expect(backup.status, JSON.stringify(backup.body)).toBe(202);
    // And an alert rule and a notification channel.
    const rule = await api.call<{ id: string }>('POST', `/v1/clusters/${clusterId}/alert-rules`, { metric: 'ops_per_sec', threshold: 1e9, forSeconds: 60 });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const channel = await api.call<{ id: string }>('POST', '/v1/notification-channels', { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'matrix-secret' });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    const ids: Record<string, string> = {
      '/v1/clusters': clusterId, '/v1/operations': operationId, '/v1/users': user.id, '/v1/tokens': token.id, '/v1/benchmarks': bench.body.id, '/v1/backups': backup.body.backup.id,
      '/v1/alert-rules': rule.body.id, '/v1/notification-channels': channel.body.id,
    };
    const checked: string[] = [];
    for (const op of await operations()) {
      // Nodes and their disk profiles are the platform's, not an organization's.
      if (!op.path.includes('{id}') || op.path.startsWith('/v1/nodes') || op.path.startsWith('/v1/profiles')) continue;
      const base = Object.keys(ids).find((b) => op.path.startsWith(b + '/'));
      expect(base, `no resource id known for ${op.path}; add it to this test`).toBeTruthy();
      const path = op.path.replace('{id}', ids[base!]!).replace('{index}', '0') + (op.path.endsWith('/metrics') ? '?metric=ops' : '');
      if (op.path.endsWith('/stream')) {
        const res = await fetch(url + path, { headers: { authorization: `Bearer ${org.body.token}` } });
        expect(res.status, path).toBe(404);
        await res.body?.cancel();
      } else {
        // Valid bodies: the only reason to refuse must be that the resource is not this organization's.
        const body = op.method === 'PATCH' && base === '/v1/users' ? { role: 'viewer' }
          : op.method === 'PATCH' && base === '/v1/clusters' ? { evictionPolicy: 'allkeys-lfu' }
          : op.method === 'POST' && op.path.endsWith('/benchmarks') ? BENCH
          : op.method === 'PUT' && op.path.endsWith('/backup-schedule') ? { intervalHours: 24, keepLast: 3 }
          : op.method === 'POST' && op.path.endsWith('/client-certificates') ? { name: 'other-org' }
          : op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
        const r = await other.call(op.method, path, body);
        expect(r.status, `${op.method} ${path}: ${JSON.stringify(r.body)}`).toBe(404);
      }
      checked.push(`${op.method} ${op.path}`);
    }
    expect(checked.length).toBeGreaterThanOrEqual(12);
    // Creating a user with an email this organization uses: a 409 that neither names the address nor says where it is used.
    const taken = await other.createUser({ email: 'viewer@matrix.test', password: 'correct-horse-battery', role: 'viewer' });
    expectProblem(taken, 409, 'conflict');
    expect(JSON.stringify(taken.body)).not.toContain('viewer@matrix.test');
    expect(taken.body.errors).toEqual([{ field: 'email', message: 'unavailable' }]);
    // Within one organization, the conflict is named.
    const mine = await api.createUser({ email: 'viewer@matrix.test', password: 'correct-horse-battery', role: 'viewer' });
    expect(expectProblem(mine, 409, 'conflict').detail).toContain('viewer@matrix.test');
    // Lists show nothing of this organization.
    expect((await other.listClusters()).body.items).toEqual([]);
    expect((await other.listUsers()).body.items).toEqual([]);
    expect((await other.listTokens()).body.items.map((t) => t.name)).toEqual(['admin (organization created)']);
    expect((await other.audit()).body.items).toEqual([]);
    // The cluster is untouched.
    const after = await api.getCluster(clusterId);
    expect(after.status).toBe(200);
    expect(after.body.spec.evictionPolicy).toBe('noeviction');
  });

  it('the audit log records who changed what, once per change, before the answer, without secrets', async () => {
    const admin = await SessionClient.signIn('admin@matrix.test', 'correct-horse-battery');
    const u = await admin.call<User>('POST', '/v1/users', { email: 'audited@matrix.test', password: 'secret-password-1', role: 'viewer' });
    expect(u.status).toBe(201);
    // One change on each router: users, tokens (create and revoke), organizations, nodes, clusters, benchmarks.
    const patched = await admin.call<User>('PATCH', `/v1/users/${u.body.id}`, { role: 'member' });
    expect(patched.status).toBe(200);
    const tok = await api.createToken({ name: 'audited-token', scopes: ['clusters:read'] });
    expect(tok.status).toBe(201);
    expect((await api.revokeToken(tok.body.id)).status).toBe(200);
    const org = await api.createOrganization('audited-co');
    expect(org.status).toBe(201);
    const patchCluster = await api.call('PATCH', `/v1/clusters/${clusterId}`, { evictionPolicy: 'allkeys-lru' });
    expect(patchCluster.status, JSON.stringify(patchCluster.body)).toBe(202);
    await api.waitForPhase(clusterId, 'ready');
    // The benchmark router: the benchmark the other-organization test started, cancelled (or one started here).
    const benches = (await api.call<{ items: { id: string; state: string }[] }>('GET', `/v1/clusters/${clusterId}/benchmarks`)).body.items;
    let benchId = benches.find((b) => !['succeeded', 'failed', 'cancelled'].includes(b.state))?.id;
    if (!benchId) {
      const started = await api.call<{ id: string }>('POST', `/v1/clusters/${clusterId}/benchmarks`, { workload: 'ycsb-c', recordCount: 100, durationSec: 30, warmupSec: 0, connections: 1 });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      benchId = started.body.id;
    }
    const cancelled = await api.call('POST', `/v1/benchmarks/${benchId}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBeLessThan(300);
    expect((await api.call('POST', `/v1/nodes/${nodeId}/drain`)).status).toBeLessThan(300);
    expect((await api.call('POST', `/v1/nodes/${nodeId}/undrain`)).status).toBeLessThan(300);

    // No polling: the entry is written before the change is answered.
    const entries = (await api.audit({ limit: 500 })).body.items;
    const count = (action: string, targetId: string) => entries.filter((e) => e.action === action && e.targetId === targetId).length;
    expect({
      createUser: count('POST /v1/users', u.body.id),
      patchUser: count('PATCH /v1/users/:id', u.body.id),
      createToken: count('POST /v1/tokens', tok.body.id),
      revokeToken: count('DELETE /v1/tokens/:id', tok.body.id),
      createOrganization: count('POST /v1/organizations', org.body.organization.id),
      drain: count('POST /v1/nodes/:id/drain', nodeId),
      undrain: count('POST /v1/nodes/:id/undrain', nodeId),
      createCluster: count('POST /v1/clusters', clusterId),
      patchCluster: count('PATCH /v1/clusters/:id', clusterId),
      cancelBenchmark: count('POST /v1/benchmarks/:id/cancel', benchId!),
    }).toEqual({
      createUser: 1, patchUser: 1, createToken: 1, revokeToken: 1, createOrganization: 1, drain: 1, undrain: 1, createCluster: 1, patchCluster: 1, cancelBenchmark: 1,
    });
    // And nothing else names those resources twice (e.g. under another action string).
    expect(entries.filter((e) => e.targetId === u.body.id)).toHaveLength(2);
    expect(entries.filter((e) => e.targetId === tok.body.id)).toHaveLength(2);

    const createUser = entries.find((e) => e.targetId === u.body.id && e.action === 'POST /v1/users')!;
    expect(createUser).toMatchObject({ status: 201, actor: { type: 'user', name: 'admin@matrix.test' }, detail: { email: 'audited@matrix.test', role: 'viewer' } });
    expect(JSON.stringify(createUser.detail)).not.toContain('secret-password-1');
    expect(entries.find((e) => e.action === 'POST /v1/clusters' && e.targetId === clusterId)).toMatchObject({ actor: { type: 'token', name: 'admin (first start)' }, status: 202 });
    expect(JSON.stringify(entries.find((e) => e.targetId === tok.body.id && e.action === 'POST /v1/tokens')!.detail)).not.toContain('stk_');
    // Refused requests change nothing, so they are not in the log (a failed sign-in is an event of its own).
    expect(entries.filter((e) => e.status >= 400).every((e) => e.action === 'SIGN-IN-FAILED')).toBe(true);
    // Readable: the action in words, the resource by its name as it was.
    expect(createUser).toMatchObject({ kind: 'user.create', summary: 'Added user audited@matrix.test', resource: { type: 'user', id: u.body.id, name: 'audited@matrix.test' }, dryRun: false });
    expect(entries.find((e) => e.action === 'PATCH /v1/clusters/:id' && e.targetId === clusterId)).toMatchObject({ summary: 'Changed cluster matrix', dryRun: false });
    expect(entries.find((e) => e.action === 'DELETE /v1/tokens/:id')).toMatchObject({ kind: 'token.revoke', summary: 'Revoked API token audited-token' });
    // Paging.
    const page = (await api.audit({ limit: 2 })).body;
    expect(page.items).toHaveLength(2);
    const next = (await api.audit({ limit: 2, before: page.nextCursor! })).body;
    expect(Number(next.items[0]!.id)).toBeLessThan(Number(page.items[1]!.id));
  });
});

describe('the audit log: dry runs, sign-ins, filters', () => {
  it('marks a dry run; records sign-ins, failed sign-ins of a known email and sign-outs; filters by actor, kind, resource and time', async () => {
    const dry = await api.call('PATCH', `/v1/clusters/${clusterId}?dryRun=true`, { evictionPolicy: 'allkeys-lfu' });
    expect(dry.status).toBe(200);
    const wrong = await fetch(`${url}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@matrix.test', password: 'not-the-password' }) });
    expect(wrong.status).toBe(401);
    const nobody = await fetch(`${url}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@matrix.test', password: 'whatever-it-is' }) });
    expect(nobody.status).toBe(401);
    const before = new Date().toISOString();
    const s = await SessionClient.signIn('admin@matrix.test', 'correct-horse-battery');
    expect((await s.call('DELETE', '/v1/session')).status).toBeLessThan(300);

    const entries = (await api.audit({ limit: 500 })).body.items;
    expect(entries.find((e) => e.action === 'PATCH /v1/clusters/:id' && e.dryRun)).toMatchObject({ summary: 'Changed cluster matrix (dry run: nothing changed)', status: 200, detail: { evictionPolicy: 'allkeys-lfu' } });
    const session = (await api.audit({ kind: 'session', limit: 500 })).body.items;
    expect(session.every((e) => e.kind.startsWith('session.'))).toBe(true);
    expect(session.find((e) => e.kind === 'session.sign-in-failed')).toMatchObject({ actor: { name: 'admin@matrix.test' }, status: 401, summary: 'Failed to sign in' });
    expect(session.some((e) => e.actor.name === 'nobody@matrix.test')).toBe(false);
    expect(session.filter((e) => e.at >= before.slice(0, 19)).map((e) => e.kind)).toEqual(expect.arrayContaining(['session.sign-in', 'session.sign-out']));

    const byActor = (await api.audit({ actor: 'ADMIN@MATRIX', limit: 500 })).body.items;
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((e) => e.actor.name === 'admin@matrix.test')).toBe(true);
    const byResource = (await api.audit({ resource: 'matrix', kind: 'cluster', limit: 500 })).body.items;
    expect(byResource.length).toBeGreaterThanOrEqual(2);
    expect(byResource.every((e) => e.resource.name === 'matrix' && e.kind.startsWith('cluster.'))).toBe(true);
    expect((await api.audit({ from: new Date(Date.now() + 60_000).toISOString() })).body.items).toEqual([]);
    expect((await api.audit({ to: '2000-01-01T00:00:00Z' })).body.items).toEqual([]);
    expect(expectProblem(await api.call('GET', '/v1/audit?kind=nonsense'), 400, 'validation_failed').errors?.map((e) => e.field)).toContain('kind');
  });
});

describe('bad input never reaches the database', () => {
  it.each([
    ['POST', '/v1/session', { email: 'admin\u0000@x.io', password: 'x' }, 'email'],
    ['POST', '/v1/session', { email: 'admin@x.io', password: 'p\u0000' }, 'password'],
    ['POST', '/v1/tokens', { name: 'ci\u0000', scopes: ['clusters:read'] }, 'name'],
    ['POST', '/v1/tokens', { name: 'ci\nlog-injection', scopes: ['clusters:read'] }, 'name'],
    ['POST', '/v1/users', { email: 'nul@x.io', password: 'longenough\u0000' }, 'password'],
    ['POST', '/v1/users', { email: 'n\u0000ul@x.io', password: 'longenough' }, 'email'],
    ['POST', '/v1/clusters', { name: 'nul\u0000name', shards: 1, replicasPerShard: 0 }, 'name'],
    ['POST', '/v1/clusters', { name: 'esc\u001bname', shards: 1, replicasPerShard: 0 }, 'name'],
    ['POST', '/v1/organizations', { name: 'org\u0000' }, 'name'],
    ['POST', '/v1/nodes/join-tokens', { ttlSeconds: 60, ['x\u0000']: 1 }, 'x\\0'],
  ])('%s %s %j -> 400 naming %s, nothing stored', async (method, path, body, field) => {
    const counts = async () => [
      (await api.listClusters()).body.items.length,
      (await api.listTokens()).body.items.length,
      (await api.listUsers()).body.items.length,
    ];
    const before = await counts();
    const p = expectProblem(await api.call(method, path, body), 400, 'validation_failed');
    expect(p.errors?.map((e) => e.field)).toContain(field);
    expect(await counts()).toEqual(before);
  });

  it('rejects control characters in query strings', async () => {
    const p = expectProblem(await api.call('GET', `/v1/clusters/${clusterId}/events?before=1%00`), 400, 'validation_failed');
    expect(p.errors?.map((e) => e.field)).toContain('before');
    const m = expectProblem(await api.call('GET', `/v1/clusters/${clusterId}/metrics?metric=ops&from=-1h%0A`), 400, 'validation_failed');
    expect(m.errors?.map((e) => e.field)).toContain('from');
  });

  it('unreadable bodies (charset, encoding, corrupt gzip) are 4xx problems, not 500', async () => {
    const { gzipSync } = await import('node:zlib');
    const post = async (headers: Record<string, string>, body: Uint8Array | string) => {
      const res = await fetch(`${url}/v1/tokens`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, ...headers }, body });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    const json = JSON.stringify({ name: 'via-odd-body', scopes: ['clusters:read'] });
    const before = (await api.listTokens()).body.items.length;
    expectProblem(await post({ 'content-type': 'application/json; charset=latin1' }, json), 415, 'unsupported_media_type');
    expectProblem(await post({ 'content-type': 'application/json', 'content-encoding': 'compress' }, json), 415, 'unsupported_media_type');
    const corrupt = gzipSync(json).subarray(0, 12);
    expectProblem(await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, corrupt), 400, 'validation_failed');
    expect((await api.listTokens()).body.items.length).toBe(before);
    // A well-formed gzip body is accepted (the 4xx above is about the body, not the encoding as such).
    expect((await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(json))).status).toBe(201);
  });

  it('cursors beyond PostgreSQL\'s bigint and an agent\'s memory beyond int4 are 400 naming the field', async () => {
    const huge = '99999999999999999999';
    expect(expectProblem(await api.call('GET', `/v1/audit?before=${huge}`), 400, 'validation_failed').errors?.map((e) => e.field)).toContain('before');
    expect(expectProblem(await api.call('GET', `/v1/clusters/${clusterId}/events?before=${huge}`), 400, 'validation_failed').errors?.map((e) => e.field)).toContain('before');
    const jt = await api.call<{ token: string }>('POST', '/v1/nodes/join-tokens', {});
    const reg = await api.call('POST', '/v1/agent/register', { joinToken: jt.body.token, name: 'huge-node', address: loopbackAddress('127.0.50.99'), memoryMb: 2 ** 40, agentVersion: 'x' });
    expect(expectProblem(reg, 400, 'validation_failed').errors?.map((e) => e.field)).toContain('memoryMb');
    expect((await api.nodes()).body.items.map((n) => n.name)).not.toContain('huge-node');
  });

  it('a lone UTF-16 surrogate is 400 naming the field, so nothing is stored mangled or left out of the audit log', async () => {
    const before = (await api.listTokens()).body.items.length;
    const p = expectProblem(await api.call('POST', '/v1/tokens', { name: 'x\ud800', scopes: ['clusters:read'] }), 400, 'validation_failed');
    expect(p.errors?.map((e) => e.field)).toContain('name');
    expect((await api.listTokens()).body.items.length).toBe(before);
  });

  it('an unknown path is 404 whoever asks (authentication belongs to routes, not prefixes)', async () => {
    for (const [method, path] of [['POST', '/v1/agent/x'], ['GET', '/v1/agent/nope'], ['GET', '/v1/nope'], ['DELETE', '/v1/clusters/x/y/z']]) {
      const res = await fetch(url + path!, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as Problem).code).toBe('not_found');
    }
  });

  it('answers a body over the limit with 413 problem+json and stores nothing', async () => {
    const before = (await api.listClusters()).body.items.length;
    const huge = JSON.stringify({ name: 'huge', shards: 1, replicasPerShard: 0, pad: 'x'.repeat(1_100_000) });
    const p = expectProblem(await api.call('POST', '/v1/clusters', undefined, huge), 413, 'payload_too_large');
    expect(p.detail).toContain('1048576 bytes');
    expect((await api.listClusters()).body.items.length).toBe(before);
  });
});
