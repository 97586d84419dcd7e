import type { Cluster, ClusterEvent, ClusterEventList, ClusterWithOperation, Connection, NodeList, Operation, Problem, Topology } from '@strata/api';

export interface ApiResponse<T> { status: number; body: T; headers: Headers }

/** A thin typed REST client for tests: real HTTP against a real control plane. */
export class TestApi {
  constructor(readonly url: string, readonly token: string) {}

  async call<T = unknown>(method: string, path: string, body?: unknown, raw?: string): Promise<ApiResponse<T>> {
    const res = await fetch(this.url + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}) },
      body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  }

  createCluster(spec: Record<string, unknown>) {
    return this.call<ClusterWithOperation & Problem>('POST', '/v1/clusters', spec);
  }
  getCluster(id: string) { return this.call<Cluster & Problem>('GET', `/v1/clusters/${id}`); }
  listClusters() { return this.call<{ items: Cluster[] }>('GET', '/v1/clusters'); }
  deleteCluster(id: string) { return this.call<ClusterWithOperation & Problem>('DELETE', `/v1/clusters/${id}`); }
  topology(id: string) { return this.call<Topology>('GET', `/v1/clusters/${id}/topology`); }
  connection(id: string) { return this.call<Connection>('GET', `/v1/clusters/${id}/connection`); }
  operation(id: string) { return this.call<Operation>('GET', `/v1/operations/${id}`); }
  nodes() { return this.call<NodeList>('GET', '/v1/nodes'); }
  events(id: string, query = '') { return this.call<ClusterEventList & Problem>('GET', `/v1/clusters/${id}/events${query}`); }

  /** Waits for an event of this type matching `where`, newest first. */
  waitForEvent<T extends ClusterEvent['type']>(id: string, type: T, where: (e: Extract<ClusterEvent, { type: T }>) => boolean = () => true, timeoutMs = 30_000): Promise<Extract<ClusterEvent, { type: T }>> {
    let seen: string[] = [];
    return this.pollUntil(async () => {
      const items = (await this.events(id, '?limit=200')).body.items ?? [];
      seen = items.map((e) => e.type);
      return items.find((e): e is Extract<ClusterEvent, { type: T }> => e.type === type && where(e as Extract<ClusterEvent, { type: T }>));
    }, timeoutMs, () => `no ${type} event on cluster ${id} within ${timeoutMs} ms (events: ${seen.join(', ') || 'none'})`);
  }

  /** Waits until the cluster is ready and every instance is healthy in its recorded role. */
  waitForHealthy(id: string, timeoutMs = 60_000): Promise<Topology> {
    let last = '';
    return this.pollUntil(async () => {
      const c = (await this.getCluster(id)).body;
      const t = (await this.topology(id)).body;
      const all = t.shards.flatMap((s) => s.instances);
      last = `${c.status.phase}: ${all.map((i) => `${i.address} ${i.role}/${i.observedRole} ${i.health}`).join(', ')}`;
      return c.status.phase === 'ready' && all.every((i) => i.health === 'healthy' && i.observedRole === i.role) ? t : undefined;
    }, timeoutMs, () => `cluster ${id} not healthy within ${timeoutMs} ms (${last})`);
  }

  /** Polls `probe` every 50 ms until it returns a value, or throws `describe()` after the timeout. */
  async pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, describe: () => string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const v = await probe();
      if (v !== undefined) return v;
      await new Promise((res) => setTimeout(res, 50));
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
