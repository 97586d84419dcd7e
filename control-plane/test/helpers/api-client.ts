import type {
  ApiToken, ApiTokenList, AuditList, CreateOrganizationResponse, User,
  Cluster, ClusterEvent, ClusterEventList, ClusterUpdateAccepted, ClusterWithOperation, Connection, NodeList, Operation, OperationList, Problem, Topology, UpdateClusterDryRun,
} from '@strata/api';
import { createStrataClient, type StrataClient } from '@strata/api/client';

export interface ApiResponse<T> { status: number; body: T; headers: Headers }

/**
 * Test access to a real control plane over real HTTP: the typed client generated from openapi.json
 * (`client`, and the helpers below built on it), plus `call` for requests the schema forbids
 * (malformed bodies, unknown paths) that bad-input tests must send anyway.
 */
export class TestApi {
  readonly client: StrataClient;

  constructor(readonly url: string, readonly token: string) {
    this.client = createStrataClient({ baseUrl: url, token });
  }

  async call<T = unknown>(method: string, path: string, body?: unknown, raw?: string): Promise<ApiResponse<T>> {
    const res = await fetch(this.url + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}) },
      body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
    });
    const text = await res.text();
    return { status: res.status, body: (text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text || null) as T, headers: res.headers };
  }

  /** A typed call's outcome as status, body (the data, or the problem+json) and headers. */
  async typed<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<ApiResponse<T>> {
    const { data, error, response } = await call;
    return { status: response.status, body: ((response.ok ? data : error) ?? null) as T, headers: response.headers };
  }

  /** `spec` may be invalid on purpose (bad-input tests). */
  createCluster(spec: Record<string, unknown>) {
    return this.typed<ClusterWithOperation & Problem>(this.client.POST('/v1/clusters', { body: spec as never }));
  }
  getCluster(id: string) { return this.typed<Cluster & Problem>(this.client.GET('/v1/clusters/{id}', { params: { path: { id } } })); }
  listClusters() { return this.typed<{ items: Cluster[] }>(this.client.GET('/v1/clusters')); }
  deleteCluster(id: string) { return this.typed<ClusterWithOperation & Problem>(this.client.DELETE('/v1/clusters/{id}', { params: { path: { id } } })); }
  topology(id: string) { return this.typed<Topology>(this.client.GET('/v1/clusters/{id}/topology', { params: { path: { id } } })); }
  /** host:port of each shard's primary, as the topology says now. */
  async primaryAddresses(id: string): Promise<string[]> {
    return (await this.topology(id)).body.shards.map((sh) => sh.instances.find((i) => i.role === 'primary')!.address);
  }
  connection(id: string) { return this.typed<Connection>(this.client.GET('/v1/clusters/{id}/connection', { params: { path: { id } } })); }
  operation(id: string) { return this.typed<Operation>(this.client.GET('/v1/operations/{id}', { params: { path: { id } } })); }
  nodes() { return this.typed<NodeList>(this.client.GET('/v1/nodes')); }
  /** PATCH /v1/clusters/{id} (`body` may be invalid on purpose); with `dryRun` the plan, changing nothing. */
  updateCluster(id: string, body: unknown, dryRun = false) {
    return this.typed<ClusterUpdateAccepted & UpdateClusterDryRun & Problem>(this.client.PATCH('/v1/clusters/{id}', {
      params: { path: { id }, ...(dryRun ? { query: { dryRun: 'true' as const } } : {}) }, body: body as never,
    }));
  }
  /** POST /v1/clusters/{id}/shards/{index}/switchover (`body` may be invalid on purpose). */
  switchover(id: string, shard: number, body: unknown = {}) {
    return this.typed<ClusterWithOperation & Problem>(this.client.POST('/v1/clusters/{id}/shards/{index}/switchover', { params: { path: { id, index: String(shard) } }, body: body as never }));
  }
  /** POST /v1/clusters/{id}/restart: a rolling restart. */
  restart(id: string, body: { when?: 'now' | 'maintenance_window'; force?: boolean } = {}) {
    return this.typed<ClusterWithOperation & Problem>(this.client.POST('/v1/clusters/{id}/restart', { params: { path: { id } }, body }));
  }
  clusterOperations(id: string) { return this.typed<OperationList & Problem>(this.client.GET('/v1/clusters/{id}/operations', { params: { path: { id } } })); }
  /** `query` as a raw query string (e.g. `?limit=200`, or an invalid one on purpose). */
  events(id: string, query = '') {
    return this.typed<ClusterEventList & Problem>(this.client.GET('/v1/clusters/{id}/events', {
      params: { path: { id } }, querySerializer: () => query.replace(/^\?/, ''),
    }));
  }

  // Access (issue 11): tokens, users, the audit log, organizations. `body` may be invalid on purpose.
  listTokens() { return this.typed<ApiTokenList>(this.client.GET('/v1/tokens')); }
  createToken(body: unknown) { return this.typed<ApiToken & Problem>(this.client.POST('/v1/tokens', { body: body as never })); }
  revokeToken(id: string) { return this.typed<ApiToken & Problem>(this.client.DELETE('/v1/tokens/{id}', { params: { path: { id } } })); }
  listUsers() { return this.typed<{ items: User[] }>(this.client.GET('/v1/users')); }
  createUser(body: unknown) { return this.typed<User & Problem>(this.client.POST('/v1/users', { body: body as never })); }
  setRole(id: string, role: User['role']) { return this.typed<User & Problem>(this.client.PATCH('/v1/users/{id}', { params: { path: { id } }, body: { role } })); }
  audit(query: { limit?: number; before?: string; actor?: string; kind?: string; resource?: string; from?: string; to?: string } = {}) { return this.typed<AuditList & Problem>(this.client.GET('/v1/audit', { params: { query: query as never } })); }
  createOrganization(name: string) { return this.typed<CreateOrganizationResponse & Problem>(this.client.POST('/v1/organizations', { body: { name } })); }

  /** Waits for an event of this type matching `where`, newest first. */
  waitForEvent<T extends ClusterEvent['type']>(id: string, type: T, where: (e: Extract<ClusterEvent, { type: T }>) => boolean = () => true, timeoutMs = 30_000): Promise<Extract<ClusterEvent, { type: T }>> {
    let seen: string[] = [];
    let state = '';
    return this.pollUntil(async () => {
      const items = (await this.events(id, '?limit=200')).body.items ?? [];
      seen = items.map((e) => e.type);
      const found = items.find((e): e is Extract<ClusterEvent, { type: T }> => e.type === type && where(e as Extract<ClusterEvent, { type: T }>));
      if (!found) {
        // What the cluster says it is doing, and where its copies are, for the message of a wait that times out.
        const [c, t] = await Promise.all([this.getCluster(id), this.topology(id)]);
        const failing = (c.body.status?.conditions ?? []).filter((x) => x.status !== (x.type === 'Healing' ? 'false' : 'true')).map((x) => `${x.type}: ${x.message}`);
        const copies = (t.body.shards ?? []).map((s, i) => `shard ${i}: ${s.instances.map((x) => `${x.id.slice(0, 8)} ${x.role} ${x.address} ${x.health}`).join(', ')}`);
        state = `; phase ${c.body.status?.phase}; ${failing.join(' | ') || 'no failing condition'}; ${copies.join('; ')}`;
      }
      return found;
    }, timeoutMs, () => `no ${type} event on cluster ${id} within ${timeoutMs} ms (events: ${seen.join(', ') || 'none'}${state})`);
  }

  /** Waits until the cluster is ready and every instance is healthy in its recorded role. */
  waitForHealthy(id: string, timeoutMs = 60_000): Promise<Topology> {
    let last = '';
    return this.pollUntil(async () => {
      const c = (await this.getCluster(id)).body;
      const t = (await this.topology(id)).body;
      const all = t.shards.flatMap((s) => s.instances);
      const failing = (c.status.conditions ?? []).filter((x) => x.status !== 'true' || x.type === 'Healing').map((x) => `${x.type}=${x.status}: ${x.message}`);
      last = `${c.status.phase}: ${all.map((i) => `${i.address} ${i.role}/${i.observedRole} ${i.health}`).join(', ')}; conditions: ${failing.join(' | ') || 'none failing'}`;
      return c.status.phase === 'ready' && all.every((i) => i.health === 'healthy' && i.observedRole === i.role) ? t : undefined;
    }, timeoutMs, () => `cluster ${id} not healthy within ${timeoutMs} ms (${last})`);
  }

  /**
   * Polls `probe` until it returns a value, or throws `describe()` after the timeout: every 50 ms at
   * first, then half as often again each time up to every 200 ms (a wait of seconds would otherwise
   * cost the control plane and PostgreSQL dozens of requests a second, beside every other test file).
   * `steady`: every 50 ms throughout, to catch a state that lasts a moment (a file part-way through a move).
   */
  async pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, describe: () => string, opts: { steady?: boolean } = {}): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (let every = 50; Date.now() < deadline; every = opts.steady ? 50 : Math.min(200, every * 1.5)) {
      const v = await probe();
      if (v !== undefined) return v;
      await new Promise((res) => setTimeout(res, every));
    }
    throw new Error(describe());
  }

  waitForPhase(id: string, phase: Cluster['status']['phase'], timeoutMs = 60_000): Promise<Cluster> {
    let last: Cluster | undefined;
    return this.pollUntil(async () => {
      const r = await this.getCluster(id);
      if (r.status !== 200) return undefined;
      last = r.body;
      if (last.status.phase === 'failed' && phase !== 'failed') throw new Error(`cluster failed: ${JSON.stringify(last.status.conditions)}`);
      return last.status.phase === phase ? last : undefined;
    }, timeoutMs, () => `cluster ${id} did not reach ${phase} in ${timeoutMs} ms (last: ${last?.status.phase})`);
  }

  async waitForGone(id: string, timeoutMs = 60_000): Promise<void> {
    await this.pollUntil(async () => ((await this.getCluster(id)).status === 404 ? true : undefined), timeoutMs, () => `cluster ${id} still exists after ${timeoutMs} ms`);
  }

  waitForOperation(id: string, timeoutMs = 60_000): Promise<Operation> {
    return this.pollUntil(async () => {
      const op = (await this.operation(id)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(op.state) ? op : undefined;
    }, timeoutMs, () => `operation ${id} did not finish in ${timeoutMs} ms`);
  }
}
