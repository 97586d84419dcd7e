import type { Cluster, ClusterWithOperation, Connection, NodeList, Operation, Problem, Topology } from '@strata/api';

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

  async waitForPhase(id: string, phase: Cluster['status']['phase'], timeoutMs = 60_000): Promise<Cluster> {
    const deadline = Date.now() + timeoutMs;
    let last: Cluster | undefined;
    while (Date.now() < deadline) {
      const r = await this.getCluster(id);
      if (r.status === 200) {
        last = r.body;
        if (last.status.phase === phase) return last;
        if (last.status.phase === 'failed') throw new Error(`cluster failed: ${JSON.stringify(last.status.conditions)}`);
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`cluster ${id} did not reach ${phase} in ${timeoutMs} ms (last: ${last?.status.phase})`);
  }

  async waitForGone(id: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.getCluster(id)).status === 404) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`cluster ${id} still exists after ${timeoutMs} ms`);
  }

  async waitForOperation(id: string, timeoutMs = 60_000): Promise<Operation> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const r = await this.operation(id);
      if (['succeeded', 'failed', 'cancelled'].includes(r.body.state)) return r.body;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`operation ${id} did not finish in ${timeoutMs} ms`);
  }
}
