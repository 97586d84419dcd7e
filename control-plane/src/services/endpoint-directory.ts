import type { AgentEndpoints, Connection } from '@strata/api';
import type pg from 'pg';
import { inTransaction } from '../db/tx';
import type { ClusterRow, ClusterStore } from '../stores/cluster.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import type { ObservedState } from '../observed/observed-state';
import { PLACEMENT_LOCK } from './cluster.service';

export interface EndpointDirectoryDeps {
  pool: pg.Pool;
  clusters: ClusterStore;
  nodes: NodeStore;
  observed: ObservedState;
  /** The address clients use for cluster endpoints; null: this installation has none. */
  host: string | null;
  portBase: number;
  now?: () => number;
}

/**
 * Stable per-cluster endpoints. Every cluster gets a port on the
 * endpoint host; every live agent is told which endpoints exist and which
 * live instances they forward to (primaries first). Whichever agent holds
 * the address serves it (locally: the first to bind; on hosts: the one that
 * holds the floating IP, or every agent behind a load balancer), so the
 * connection string outlives the loss of any node.
 */
export class EndpointDirectory {
  private cache: { at: number; value: AgentEndpoints } | null = null;
  private readonly now: () => number;

  constructor(private readonly d: EndpointDirectoryDeps) {
    this.now = d.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.d.host !== null;
  }

  /** Gives every cluster without an endpoint port one (clusters made before endpoints existed). */
  async assignMissing(): Promise<number> {
    if (!this.enabled) return 0;
    return inTransaction(this.d.pool, async (db) => {
      await db.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
      const missing = await db.query(`SELECT id FROM clusters WHERE endpoint_port IS NULL AND phase <> 'deleting' ORDER BY created_at`);
      for (const row of missing.rows) await this.d.clusters.setEndpointPort(row.id, await this.d.clusters.freeEndpointPort(this.d.portBase, db), db);
      return missing.rowCount ?? 0;
    });
  }

  /** What agents serve: every endpoint and the live instances behind it. Cached for half a second (every agent polls each second). */
  async forAgents(): Promise<AgentEndpoints> {
    if (!this.enabled) return { host: null, items: [] };
    if (this.cache && this.now() - this.cache.at < 500) return this.cache.value;
    const [clusters, instances, nodes] = await Promise.all([this.d.clusters.withEndpoints(), this.d.clusters.allInstances(), this.d.nodes.list()]);
    const live = new Map(nodes.filter((n) => !this.d.observed.isSilent(n.id)).map((n) => [n.id, n]));
    const targets = (clusterId: string, port: (i: (typeof instances)[number]) => number | null | undefined) => instances
      .filter((i) => i.clusterId === clusterId && live.has(i.nodeId) && port(i))
      .sort((a, b) => Number(b.role === 'primary') - Number(a.role === 'primary') || a.shardIndex - b.shardIndex)
      .map((i) => `${live.get(i.nodeId)!.address}:${port(i)}`);
    const items = clusters.flatMap((c) => [
      { clusterId: c.id, port: c.endpointPort!, targets: targets(c.id, (i) => i.port) },
      // While both protocols are served: the second protocol's endpoint, to the instances' second ports.
      ...(c.endpointSecondPort ? [{ clusterId: c.id, port: c.endpointSecondPort, targets: targets(c.id, (i) => i.secondPort) }] : []),
      // A second endpoint whose protocol moved to the own ports lingers a while, forwarding to them.
      ...(c.endpointLinger && c.endpointLinger.untilMs > this.now() && c.endpointLinger.port !== c.endpointSecondPort
        ? [{ clusterId: c.id, port: c.endpointLinger.port, targets: targets(c.id, (i) => i.port) }] : []),
    ]);
    const value = { host: this.d.host, items };
    this.cache = { at: this.now(), value };
    return value;
  }

  /** host:port of the cluster's second stable endpoint (the protocol its instances serve on their second ports), if it has one. */
  secondFor(cluster: ClusterRow): string | null {
    return this.enabled && cluster.endpointSecondPort ? `${this.d.host}:${cluster.endpointSecondPort}` : null;
  }

  /** The endpoint part of a cluster's connection details. */
  forCluster(cluster: ClusterRow, nodes: NodeRow[]): Connection['endpoint'] {
    if (!this.enabled || cluster.endpointPort === null) return null;
    const port = cluster.endpointPort;
    const servedBy = nodes.filter((n) => this.d.observed.endpointPorts(n.id).includes(port)).map((n) => n.name);
    return { host: this.d.host!, port, servedBy };
  }
}
