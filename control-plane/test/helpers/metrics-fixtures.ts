import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { InstanceMetricSample } from '@strata/api';

/** Rows for one organization with `clusters` clusters of `shards` primaries spread over `nodes` nodes (direct inserts, no agents). */
export async function seedFleet(pool: pg.Pool, o: { nodes: number; clusters: number; shards: number; addressPrefix?: string }) {
  const org = randomUUID();
  await pool.query("INSERT INTO organizations (id, name) VALUES ($1, $2)", [org, `org-${org}`]);
  const nodes = Array.from({ length: o.nodes }, (_, i) => ({ id: randomUUID(), name: `sim-${i}`, address: `${o.addressPrefix ?? '10.0'}.${Math.floor(i / 250)}.${(i % 250) + 1}` }));
  await pool.query(
    `INSERT INTO nodes (id, name, address, memory_mb, credential_hash, agent_version)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])`,
    [nodes.map((n) => n.id), nodes.map((n) => n.name), nodes.map((n) => n.address), nodes.map(() => 4096), nodes.map((n) => `sim-${n.id}`), nodes.map(() => 'sim')],
  );
  const clusters: { id: string; instances: { id: string; nodeId: string; shard: number; port: number }[] }[] = [];
  let slot = 0;
  for (let c = 0; c < o.clusters; c++) {
    const id = randomUUID();
    await pool.query("INSERT INTO clusters (id, organization_id, name, spec, phase, secrets_enc, needs_reconcile) VALUES ($1, $2, $3, '{}', 'ready', 'x', false)", [id, org, `c-${c}`]);
    const instances = Array.from({ length: o.shards }, (_, s) => {
      const node = nodes[slot % nodes.length]!;
      const port = 7000 + Math.floor(slot / nodes.length);
      slot++;
      return { id: randomUUID(), nodeId: node.id, shard: s, port };
    });
    await pool.query(
      `INSERT INTO instances (id, cluster_id, shard_index, role, preferred_role, replica_index, node_id, port, memory_mb)
       SELECT i, $2, s, 'primary', 'primary', 0, n, p, 256 FROM unnest($1::uuid[], $3::int[], $4::uuid[], $5::int[]) AS u(i, s, n, p)`,
      [instances.map((i) => i.id), id, instances.map((i) => i.shard), instances.map((i) => i.nodeId), instances.map((i) => i.port)],
    );
    clusters.push({ id, instances });
  }
  return { org, nodes, clusters };
}

/** A plausible 1-second sample: `ops` split 70/30 reads/writes, latencies around 8-16 µs. */
export function syntheticSample(instanceId: string, clusterId: string, tsMs: number, ops: number): InstanceMetricSample {
  const latency = new Array<number>(27).fill(0);
  latency[3] = Math.round(ops * 0.9);
  latency[4] = ops - Math.round(ops * 0.9);
  return {
    instanceId, clusterId, ts: tsMs, intervalMs: 1000, role: 'primary', restarted: false,
    reads: Math.round(ops * 0.7), writes: ops - Math.round(ops * 0.7), others: 2, latency, latencySumUs: ops * 9,
    clients: 12, usedMemory: 3_000_000, maxMemory: 268_435_456, keys: 10_000, evicted: 0, expired: 1, hits: Math.round(ops * 0.6), misses: 3,
    netIn: ops * 60, netOut: ops * 40, cpuSeconds: 0.01, replicas: [],
  };
}
