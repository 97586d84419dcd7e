/**
 * Who an instance is (cluster, shard, node, address), cached from PostgreSQL
 * so that ingesting thousands of samples a second costs no queries. Reloaded
 * when the database announces a change to instances or clusters (`changed`,
 * fed by the live feed's notices), at once (at most once a second) when a
 * sample names an instance it does not know yet, and every minute in case a
 * notice was missed: nothing is read while nothing changes.
 */
import type pg from 'pg';

export interface InstanceInfo {
  id: string;
  clusterId: string;
  clusterName: string;
  organizationId: string;
  shard: number;
  nodeId: string;
  nodeName: string;
  address: string;
  port: number;
}

export class InstanceDirectory {
  private byId = new Map<string, InstanceInfo>();
  private byCluster = new Map<string, InstanceInfo[]>();
  private byAddress = new Map<string, InstanceInfo>();
  private nodeNames = new Map<string, string>();
  private clusterNames = new Map<string, { name: string; organizationId: string }>();
  private loadedAt = 0;
  private loading?: Promise<void>;
  /** A change was announced while a load was reading: load again after it. */
  private stale = false;
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Timeout;

  constructor(private readonly pool: pg.Pool, private readonly refreshMs = 60_000, private readonly changeDelayMs = 100) {}

  start(): void {
    this.timer = setInterval(() => void this.reload().catch(() => {}), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
  }

  /** Instances or clusters changed (or may have): reload shortly, once for a burst of changes. */
  changed(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.reload().catch(() => {});
    }, this.changeDelayMs);
    this.soon.unref();
  }

  reload(): Promise<void> {
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        const [inst, nodes, clusters] = await Promise.all([
          this.pool.query(`SELECT i.id, i.cluster_id, c.name AS cluster_name, c.organization_id, i.shard_index, i.node_id, n.name AS node_name, n.address, i.port
                             FROM instances i JOIN clusters c ON c.id = i.cluster_id JOIN nodes n ON n.id = i.node_id`),
          this.pool.query('SELECT id, name FROM nodes'),
          this.pool.query('SELECT id, name, organization_id FROM clusters'),
        ]);
        const byId = new Map<string, InstanceInfo>();
        const byCluster = new Map<string, InstanceInfo[]>();
        const byAddress = new Map<string, InstanceInfo>();
        for (const r of inst.rows) {
          const info: InstanceInfo = {
            id: r.id, clusterId: r.cluster_id, clusterName: r.cluster_name, organizationId: r.organization_id, shard: r.shard_index,
            nodeId: r.node_id, nodeName: r.node_name, address: r.address, port: r.port,
          };
          byId.set(info.id, info);
          byAddress.set(`${info.address}:${info.port}`, info);
          const list = byCluster.get(info.clusterId) ?? [];
          list.push(info);
          byCluster.set(info.clusterId, list);
        }
        for (const list of byCluster.values()) list.sort((a, b) => a.shard - b.shard || a.id.localeCompare(b.id));
        this.byId = byId;
        this.byCluster = byCluster;
        this.byAddress = byAddress;
        this.nodeNames = new Map(nodes.rows.map((r) => [r.id as string, r.name as string]));
        this.clusterNames = new Map(clusters.rows.map((r) => [r.id as string, { name: r.name as string, organizationId: r.organization_id as string }]));
        this.loadedAt = Date.now();
      } finally {
        this.loading = undefined;
        if (this.stale) {
          this.stale = false;
          void this.reload().catch(() => {});
        }
      }
    })();
    return this.loading;
  }

  /** Reloads when `id` is unknown and the last load is over a second old. */
  async lookup(id: string): Promise<InstanceInfo | undefined> {
    const hit = this.byId.get(id);
    if (hit || Date.now() - this.loadedAt < 1000) return hit;
    await this.reload();
    return this.byId.get(id);
  }

  get(id: string): InstanceInfo | undefined {
    return this.byId.get(id);
  }

  ofCluster(clusterId: string): InstanceInfo[] {
    return this.byCluster.get(clusterId) ?? [];
  }

  atAddress(hostPort: string): InstanceInfo | undefined {
    return this.byAddress.get(hostPort);
  }

  clusters(): IterableIterator<[string, InstanceInfo[]]> {
    return this.byCluster.entries();
  }

  nodeName(id: string): string | undefined {
    return this.nodeNames.get(id);
  }

  clusterName(id: string): string | undefined {
    return this.clusterNames.get(id)?.name;
  }
}
