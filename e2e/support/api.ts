import type {
  Cluster,
  ClusterList,
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

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(`HTTP ${status}: ${problem?.code ?? ''} ${problem?.detail ?? problem?.title ?? ''}`);
  }
}

/** Test data goes through the real API with a Bearer token, never through the UI. */
export class StrataApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new ApiProblem(res.status, (await res.json().catch(() => undefined)) as Problem | undefined);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  listClusters(): Promise<Cluster[]> {
    return this.request<ClusterList>('GET', '/v1/clusters').then((l) => l.items);
  }

  async clustersNamed(name: string): Promise<Cluster[]> {
    return (await this.listClusters()).filter((c) => c.name === name);
  }

  createCluster(body: CreateClusterRequest): Promise<ClusterWithOperation> {
    return this.request('POST', '/v1/clusters', body);
  }

  getCluster(id: string): Promise<Cluster> {
    return this.request('GET', `/v1/clusters/${id}`);
  }

  topology(id: string): Promise<Topology> {
    return this.request<Topology>('GET', `/v1/clusters/${id}/topology`);
  }

  getConnection(id: string): Promise<Connection> {
    return this.request('GET', `/v1/clusters/${id}/connection`);
  }

  async deleteCluster(id: string): Promise<void> {
    try {
      await this.request('DELETE', `/v1/clusters/${id}`);
    } catch (e) {
      if (!(e instanceof ApiProblem && (e.status === 404 || e.status === 409))) throw e;
    }
  }

  nodes(): Promise<NodeList> {
    return this.request('GET', '/v1/nodes');
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
    return this.request('POST', '/v1/organizations', { name });
  }

  /** A user in this token's organization. */
  createUser(email: string, password: string): Promise<User> {
    return this.request('POST', '/v1/users', { email, password });
  }
}
