import type {
  Capacity,
  Cluster,
  ClusterPhase,
  ClusterWithOperation,
  Connection,
  CreateClusterRequest,
  CreateOrganizationResponse,
  NodeList,
  Problem,
  Topology,
  User,
} from '@strata/api';
import { createStrataClient, type StrataClient, type StrataComponents } from '@strata/api/client';

/** openapi.json shows request schemas as parsed (fields with defaults required); the server fills them in. */
type CreateClusterBody = StrataComponents['schemas']['CreateClusterRequest'];
type UserBody = StrataComponents['schemas']['CreateUserRequest'];

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(`HTTP ${status}: ${problem?.code ?? ''} ${problem?.detail ?? problem?.title ?? ''}`);
  }
}

/** Test data goes through the real API with a Bearer token, never through the UI: the client generated from openapi.json. */
export class StrataApi {
  private readonly api: StrataClient;

  constructor(
    readonly baseUrl: string,
    token: string,
  ) {
    this.api = createStrataClient({ baseUrl: baseUrl.replace(/\/$/, ''), token });
  }

  /** The data of a call of the typed client, or an ApiProblem. */
  private async ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw new ApiProblem(response.status, (typeof error === 'object' ? error : undefined) as Problem | undefined);
    return data as T;
  }

  listClusters(): Promise<Cluster[]> {
    return this.ok(this.api.GET('/v1/clusters')).then((l) => l.items);
  }

  async clustersNamed(name: string): Promise<Cluster[]> {
    return (await this.listClusters()).filter((c) => c.name === name);
  }

  createCluster(body: CreateClusterRequest): Promise<ClusterWithOperation> {
    return this.ok(this.api.POST('/v1/clusters', { body: body as CreateClusterBody }));
  }

  getCluster(id: string): Promise<Cluster> {
    return this.ok(this.api.GET('/v1/clusters/{id}', { params: { path: { id } } }));
  }

  topology(id: string): Promise<Topology> {
    return this.ok(this.api.GET('/v1/clusters/{id}/topology', { params: { path: { id } } }));
  }

  /** PATCH ?dryRun=true: the plan, or the refusal as an ApiProblem. */
  planChange(id: string, body: { shards?: number; replicasPerShard?: number; memoryMbPerShard?: number }): Promise<unknown> {
    return this.ok(this.api.PATCH('/v1/clusters/{id}', { params: { path: { id }, query: { dryRun: 'true' } }, body }));
  }

  /** PATCH: start a change (202), or the refusal as an ApiProblem. */
  changeCluster(id: string, body: { shards?: number; replicasPerShard?: number; memoryMbPerShard?: number }): Promise<unknown> {
    return this.ok(this.api.PATCH('/v1/clusters/{id}', { params: { path: { id } }, body }));
  }

  /** The cluster's operations, newest first. */
  clusterOperations(id: string) {
    return this.ok(this.api.GET('/v1/clusters/{id}/operations', { params: { path: { id } } })).then((l) => l.items);
  }

  /** The cluster's events, newest first. */
  events(id: string): Promise<StrataComponents['schemas']['ClusterEventList']['items']> {
    return this.ok(this.api.GET('/v1/clusters/{id}/events', { params: { path: { id } } })).then((l) => l.items);
  }

  getConnection(id: string): Promise<Connection> {
    return this.ok(this.api.GET('/v1/clusters/{id}/connection', { params: { path: { id } } }));
  }

  async deleteCluster(id: string): Promise<void> {
    try {
      await this.ok(this.api.DELETE('/v1/clusters/{id}', { params: { path: { id } } }));
    } catch (e) {
      if (!(e instanceof ApiProblem && (e.status === 404 || e.status === 409))) throw e;
    }
  }

  nodes(): Promise<NodeList> {
    return this.ok(this.api.GET('/v1/nodes'));
  }

  /** Bounds the placement planner allows for this shape (defaults: 1 replica, 256 MB); with clusterId, for changing that cluster. */
  capacity(query: { replicasPerShard?: number; memoryMbPerShard?: number; shards?: number; clusterId?: string } = {}): Promise<Capacity> {
    return this.ok(this.api.GET('/v1/capacity', { params: { query } }));
  }

  /** Platform admin: return a drained node to placement. */
  undrainNode(id: string): Promise<{ id: string; name: string; draining: boolean }> {
    return this.ok(this.api.POST('/v1/nodes/{id}/undrain', { params: { path: { id } } }));
  }

  /** Polls until the cluster reaches `phase` (or throws on `failed`). */
  async waitForPhase(id: string, phase: ClusterPhase, timeoutMs = 120_000): Promise<Cluster> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = await this.getCluster(id);
      if (c.status.phase === phase) return c;
      if (c.status.phase === 'failed' && phase !== 'failed') throw new Error(`cluster ${c.name} failed: ${JSON.stringify(c.status.conditions)}`);
      if (Date.now() > deadline) throw new Error(`cluster ${c.name} is ${c.status.phase}, not ${phase}, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Polls until GET /v1/clusters/{id} answers 404. */
  async waitForGone(id: string, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.getCluster(id);
      } catch (e) {
        if (e instanceof ApiProblem && e.status === 404) return;
        throw e;
      }
      if (Date.now() > deadline) throw new Error(`cluster ${id} still exists after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Platform admin: a new organization and its admin API token. */
  createOrganization(name: string): Promise<CreateOrganizationResponse> {
    return this.ok(this.api.POST('/v1/organizations', { body: { name } }));
  }

  /** A user in this token's organization. */
  /** A node join token (platform admin): a cheap change the audit log records. */
  createJoinToken(): Promise<unknown> {
    return this.ok(this.api.POST('/v1/nodes/join-tokens', { body: {} }));
  }

  createUser(email: string, password: string): Promise<User> {
    return this.ok(this.api.POST('/v1/users', { body: { email, password } as UserBody }));
  }

  /** The users of this token's organization. */
  async users(): Promise<User[]> {
    return (await this.ok(this.api.GET('/v1/users'))).items;
  }

  /** Change a user's role. */
  setRole(id: string, role: User['role']): Promise<User> {
    return this.ok(this.api.PATCH('/v1/users/{id}', { params: { path: { id } }, body: { role } }));
  }

  /** The newest audit entries of this token's organization. */
  async audit(limit = 500): Promise<StrataComponents['schemas']['AuditList']['items']> {
    return (await this.ok(this.api.GET('/v1/audit', { params: { query: { limit } } }))).items;
  }
}
