import type pg from 'pg';
import type { Cluster, ClusterPhase, ClusterSpec, Condition, InstanceRole, SlotRange } from '@strata/api';
import type { TlsLayout } from '@strata/engine';
import type { Db } from '../db/tx';

export interface ClusterRow extends Cluster {
  secretsEnc: string;
  /** Reconcile requests so far; a pass clears needs_reconcile only if this has not moved since it began. */
  reconcileRequests: string;
  /** The port of the cluster's stable endpoint (null until assigned). */
  endpointPort: number | null;
  /** The port of its second stable endpoint, held while its instances serve both protocols (to their second ports). */
  endpointSecondPort?: number | null;
  /** A second endpoint that lingers after the switch that moved its protocol to the own ports (forwarding to them), and until when. */
  endpointLinger?: { port: number; untilMs: number } | null;
  /** What its instances serve now (an in-place TLS switch moves it stage by stage); spec.tls is what was asked. */
  tlsLayout: TlsLayout;
  /** Its cluster bus speaks TLS (created with TLS; never changes). */
  tlsBus: boolean;
}

export interface ShardRow {
  clusterId: string;
  shardIndex: number;
  slots: SlotRange[];
}

export interface InstanceRow {
  id: string;
  clusterId: string;
  shardIndex: number;
  /** The live role: follows failovers as observed. */
  role: InstanceRole;
  /** The role placement chose; primaries return to these after a failover. */
  preferredRole: InstanceRole;
  replicaIndex: number;
  nodeId: string;
  port: number;
  memoryMb: number;
  /** The Redis node id last reported by the instance. */
  engineId?: string | null;
  /** Its config epoch as last observed. */
  configEpoch?: number | null;
  /** A TLS switch: the port the second protocol is served on while both are (null: none held). */
  secondPort?: number | null;
  /** A TLS switch mid-stage: this instance's layout when its part of the stage is done and the cluster's is not yet. */
  tlsLayout?: TlsLayout | null;
}

/** A reconcile lease as taken: the cluster, this process's owner name, and the epoch the take gave it (the fencing token). */
export interface ClusterLease {
  clusterId: string;
  owner: string;
  epoch: string;
}

/** An instance whose node went down and that was replaced elsewhere. */
export interface LostInstanceRow extends InstanceRow {
  lostAt: Date;
  forgottenAt: Date | null;
}

const toCluster = (r: any): ClusterRow => ({
  id: r.id,
  name: r.name,
  organizationId: r.organization_id,
  // Clusters stored before migrationPriority, maintenanceWindow, fencing, tls or tlsClientAuth existed move at the default, have no window, are unfenced,
  // speak plain text and ask for no client certificate.
  spec: {
    migrationPriority: 'balanced', maintenanceWindow: null, fencing: 'off', tls: 'off', tlsClientAuth: 'none',
    ...(r.spec as Omit<ClusterSpec, 'migrationPriority' | 'maintenanceWindow' | 'fencing' | 'tls' | 'tlsClientAuth'>),
  } as ClusterSpec,
  generation: r.generation,
  observedGeneration: r.observed_generation,
  status: { phase: r.phase as ClusterPhase, conditions: r.conditions as Condition[] },
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  secretsEnc: r.secrets_enc,
  reconcileRequests: String(r.reconcile_requests),
  endpointPort: r.endpoint_port ?? null,
  endpointSecondPort: r.endpoint_second_port ?? null,
  endpointLinger: r.endpoint_linger_port && r.endpoint_linger_until ? { port: r.endpoint_linger_port, untilMs: r.endpoint_linger_until.getTime() } : null,
  tlsLayout: r.tls_layout ?? (r.spec?.tls === 'required' ? 'tls' : 'plain'),
  tlsBus: r.tls_bus ?? r.spec?.tls === 'required',
});

const toInstance = (r: any): InstanceRow => ({
  id: r.id, clusterId: r.cluster_id, shardIndex: r.shard_index, role: r.role, preferredRole: r.preferred_role, replicaIndex: r.replica_index,
  nodeId: r.node_id, port: r.port, memoryMb: r.memory_mb, engineId: r.engine_id,
  configEpoch: r.config_epoch === null || r.config_epoch === undefined ? null : Number(r.config_epoch),
  secondPort: r.second_port ?? null, tlsLayout: r.tls_layout ?? null,
});

/** Strips what must never leave the server. */
export const publicCluster = ({ secretsEnc: _s, reconcileRequests: _r, endpointPort: _e, endpointSecondPort: _e2, endpointLinger: _e3, tlsLayout: _l, tlsBus: _b, ...c }: ClusterRow): Cluster => c;

export class ClusterStore {
  constructor(private readonly pool: pg.Pool) {}

  /** A new cluster row; its first status comes from `initialStatus()` (reconciler/cluster-status.ts). */
  async insert(c: { id: string; organizationId: string; name: string; spec: ClusterSpec; status: { phase: ClusterPhase; conditions: Condition[] }; secretsEnc: string; endpointPort?: number | null }, db: Db): Promise<ClusterRow> {
    const r = await db.query(
      `INSERT INTO clusters (id, organization_id, name, spec, phase, conditions, secrets_enc, endpoint_port, tls_layout, tls_bus) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [c.id, c.organizationId, c.name, JSON.stringify(c.spec), c.status.phase, JSON.stringify(c.status.conditions), c.secretsEnc, c.endpointPort ?? null,
        c.spec.tls === 'required' ? 'tls' : 'plain', c.spec.tls === 'required'],
    );
    return toCluster(r.rows[0]);
  }

  /** The lowest endpoint port from `base` up that no cluster holds (as its endpoint or its second one). Call under the placement lock. */
  async freeEndpointPort(base: number, db: Db = this.pool): Promise<number> {
    const r = await db.query(
      `SELECT p FROM (SELECT endpoint_port AS p FROM clusters UNION SELECT endpoint_second_port FROM clusters
         UNION SELECT endpoint_linger_port FROM clusters WHERE endpoint_linger_until > now()) held WHERE p >= $1 ORDER BY p`,
      [base],
    );
    let port = base;
    for (const row of r.rows) {
      if (row.p !== port) break;
      port++;
    }
    return port;
  }

  async setEndpointPort(id: string, port: number, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE clusters SET endpoint_port = $2 WHERE id = $1', [id, port]);
  }

  /** Holds (a port) or releases (null) the cluster's second endpoint. Call under the placement lock. */
  async setEndpointSecondPort(id: string, port: number | null, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE clusters SET endpoint_second_port = $2 WHERE id = $1', [id, port]);
  }

  /** Clusters with an endpoint that agents should serve (every phase but deleting). */
  async withEndpoints(db: Db = this.pool): Promise<ClusterRow[]> {
    const r = await db.query(`SELECT * FROM clusters WHERE endpoint_port IS NOT NULL AND phase <> 'deleting' ORDER BY endpoint_port`);
    return r.rows.map(toCluster);
  }

  async insertInstances(rows: InstanceRow[], db: Db): Promise<void> {
    for (const i of rows) {
      await db.query(
        `INSERT INTO instances (id, cluster_id, shard_index, role, preferred_role, replica_index, node_id, port, memory_mb) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [i.id, i.clusterId, i.shardIndex, i.role, i.preferredRole, i.replicaIndex, i.nodeId, i.port, i.memoryMb],
      );
    }
  }

  async insertShards(rows: ShardRow[], db: Db): Promise<void> {
    for (const sh of rows) {
      await db.query(`INSERT INTO shards (cluster_id, shard_index, slots) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [sh.clusterId, sh.shardIndex, JSON.stringify(sh.slots)]);
    }
  }

  async shards(clusterId: string, db: Db = this.pool): Promise<ShardRow[]> {
    const r = await db.query('SELECT * FROM shards WHERE cluster_id = $1 ORDER BY shard_index', [clusterId]);
    return r.rows.map((row) => ({ clusterId: row.cluster_id, shardIndex: row.shard_index, slots: row.slots as SlotRange[] }));
  }

  /** Records what an instance was observed to be: its live role and Redis node id. */
  async recordObservedInstance(id: string, o: { role: InstanceRole; engineId: string; configEpoch: number }, db: Db = this.pool): Promise<void> {
    await db.query(
      `UPDATE instances SET role = $2, engine_id = $3, config_epoch = $4
        WHERE id = $1 AND (role IS DISTINCT FROM $2 OR engine_id IS DISTINCT FROM $3 OR config_epoch IS DISTINCT FROM $4)`,
      [id, o.role, o.engineId, o.configEpoch],
    );
  }

  async get(id: string, organizationId?: string, db: Db = this.pool): Promise<ClusterRow | null> {
    const r = organizationId
      ? await db.query('SELECT * FROM clusters WHERE id = $1 AND organization_id = $2', [id, organizationId])
      : await db.query('SELECT * FROM clusters WHERE id = $1', [id]);
    return r.rows[0] ? toCluster(r.rows[0]) : null;
  }

  async list(organizationId: string): Promise<ClusterRow[]> {
    const r = await this.pool.query('SELECT * FROM clusters WHERE organization_id = $1 ORDER BY created_at DESC', [organizationId]);
    return r.rows.map(toCluster);
  }

  async listByPhase(phases: ClusterPhase[]): Promise<ClusterRow[]> {
    const r = await this.pool.query('SELECT * FROM clusters WHERE phase = ANY($1)', [phases]);
    return r.rows.map(toCluster);
  }

  /** The cluster's active instances (lost ones are in `lostInstances`). */
  async instances(clusterId: string, db: Db = this.pool): Promise<InstanceRow[]> {
    const r = await db.query('SELECT * FROM instances WHERE cluster_id = $1 AND lost_at IS NULL ORDER BY shard_index, replica_index', [clusterId]);
    return r.rows.map(toInstance);
  }

  async lostInstances(clusterId: string, db: Db = this.pool): Promise<LostInstanceRow[]> {
    const r = await db.query('SELECT * FROM instances WHERE cluster_id = $1 AND lost_at IS NOT NULL ORDER BY shard_index, replica_index', [clusterId]);
    return r.rows.map((row) => ({ ...toInstance(row), lostAt: row.lost_at, forgottenAt: row.forgotten_at }));
  }

  async markLost(id: string, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE instances SET lost_at = now() WHERE id = $1 AND lost_at IS NULL', [id]);
  }

  async markForgotten(ids: string[], db: Db = this.pool): Promise<void> {
    await db.query('UPDATE instances SET forgotten_at = now() WHERE id = ANY($1::uuid[]) AND forgotten_at IS NULL', [ids]);
  }

  async deleteInstance(id: string, db: Db = this.pool): Promise<void> {
    await db.query('DELETE FROM instances WHERE id = $1', [id]);
  }

  /** Second ports held for a TLS switch (instance id -> port). Call under the placement lock. */
  async setSecondPorts(ports: Map<string, number>, db: Db = this.pool): Promise<void> {
    for (const [id, port] of ports) await db.query('UPDATE instances SET second_port = $2 WHERE id = $1', [id, port]);
  }

  /**
   * A TLS switch stage done on every instance: the cluster serves `layout`; instances follow it again; second ports
   * released unless kept. With `lingerMs`, a released second endpoint lingers that long (forwarding to the own ports).
   */
  async setTlsLayout(clusterId: string, layout: TlsLayout, keepSecondPorts: boolean, db: Db = this.pool, lingerMs = 0): Promise<void> {
    const release = lingerMs > 0
      ? `, endpoint_linger_port = endpoint_second_port, endpoint_linger_until = CASE WHEN endpoint_second_port IS NULL THEN NULL ELSE now() + make_interval(secs => $3 / 1000.0) END, endpoint_second_port = NULL`
      : ', endpoint_second_port = NULL';
    await db.query(`UPDATE clusters SET tls_layout = $2${keepSecondPorts ? '' : release} WHERE id = $1`, lingerMs > 0 && !keepSecondPorts ? [clusterId, layout, lingerMs] : [clusterId, layout]);
    await db.query(`UPDATE instances SET tls_layout = NULL${keepSecondPorts ? '' : ', second_port = NULL'} WHERE cluster_id = $1`, [clusterId]);
  }

  /** One instance's part of a TLS switch stage done (its cluster's layout follows once every instance's is). */
  async setInstanceTlsLayout(id: string, layout: TlsLayout, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE instances SET tls_layout = $2 WHERE id = $1', [id, layout]);
  }

  async setPreferredRole(id: string, role: InstanceRole, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE instances SET preferred_role = $2 WHERE id = $1', [id, role]);
  }

  /**
   * Instances of every cluster, for capacity and node pages. With
   * `includeLost`, also replaced ones not cleaned up yet (they still hold
   * their port on their node).
   */
  async allInstances(db: Db = this.pool, opts: { includeLost?: boolean } = {}): Promise<(InstanceRow & { clusterName: string; organizationName: string })[]> {
    const r = await db.query(`SELECT i.*, c.name AS cluster_name, o.name AS organization_name
      FROM instances i JOIN clusters c ON c.id = i.cluster_id JOIN organizations o ON o.id = c.organization_id
      WHERE ($1 OR i.lost_at IS NULL) ORDER BY c.name, i.shard_index, i.replica_index`, [opts.includeLost ?? false]);
    return r.rows.map((row) => ({ ...toInstance(row), clusterName: row.cluster_name, organizationName: row.organization_name }));
  }

  /**
   * Phase and conditions (and, when `observed`, observedGeneration = generation). Only
   * `writeStatus` (reconciler/cluster-status.ts) calls this: it decides the status.
   */
  async setStatus(id: string, status: { phase: ClusterPhase; conditions: Condition[]; observed: boolean }, db: Db = this.pool): Promise<void> {
    await db.query(
      `UPDATE clusters SET phase = $2, conditions = $3, updated_at = now(),
              observed_generation = CASE WHEN $4::boolean THEN greatest(observed_generation, generation) ELSE observed_generation END
        WHERE id = $1`,
      [id, status.phase, JSON.stringify(status.conditions), status.observed],
    );
  }

  /** Replaces the cluster's sealed secrets (a CA rotation moves its CA). */
  async setSecrets(id: string, secretsEnc: string, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE clusters SET secrets_enc = $2 WHERE id = $1', [id, secretsEnc]);
  }

  /** Asks for a reconcile pass (something changed: a spec, an observation, a task outcome). */
  async markNeedsReconcile(id: string, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE clusters SET needs_reconcile = true, reconcile_requests = reconcile_requests + 1 WHERE id = $1', [id]);
  }

  /** Level-triggered sweep: every cluster in these phases gets a pass. Returns how many were marked. */
  /** Requests a pass for every cluster in these phases, except the ids given. */
  async markAllNeedReconcile(phases: ClusterPhase[], except: string[] = []): Promise<number> {
    const r = await this.pool.query(
      'UPDATE clusters SET needs_reconcile = true, reconcile_requests = reconcile_requests + 1 WHERE phase = ANY($1) AND NOT needs_reconcile AND NOT (id = ANY($2::uuid[]))',
      [phases, except],
    );
    return r.rowCount ?? 0;
  }

  async delete(id: string, db: Db = this.pool): Promise<void> {
    await db.query('DELETE FROM clusters WHERE id = $1', [id]);
  }

  /**
   * Leases up to `limit` clusters that need reconciling and are not leased by
   * another live worker. Each lease taken gets a new epoch (the fencing token
   * every write on its behalf checks: `holdsLease`). A row a fenced write
   * holds locked is skipped, not waited for.
   */
  async leaseForReconcile(owner: string, leaseMs: number, limit: number, exclude: string[]): Promise<ClusterLease[]> {
    const r = await this.pool.query(
      `UPDATE clusters SET lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000), lease_epoch = lease_epoch + 1
        WHERE id IN (
          SELECT id FROM clusters
           WHERE needs_reconcile AND NOT (id = ANY($4::uuid[]))
             AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $1)
           ORDER BY updated_at FOR UPDATE SKIP LOCKED LIMIT $3)
        RETURNING id, lease_epoch`,
      [owner, leaseMs, limit, exclude],
    );
    return r.rows.map((row) => ({ clusterId: row.id, owner, epoch: String(row.lease_epoch) }));
  }

  /** Extends a lease still held (same owner and epoch); false when it was taken over. */
  async renewLease(lease: ClusterLease, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE clusters SET lease_until = now() + make_interval(secs => $4::double precision / 1000) WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3`,
      [lease.clusterId, lease.owner, lease.epoch, leaseMs],
    );
    return r.rowCount === 1;
  }

  /**
   * The fence: true when the lease is still held, and the cluster's row is
   * then locked until `db`'s transaction ends, so that no other control plane
   * can take the lease between this check and the writes after it in the
   * same transaction (its lease attempt skips the locked row).
   */
  async holdsLease(lease: ClusterLease, db: Db = this.pool): Promise<boolean> {
    const r = await db.query(
      'SELECT 1 FROM clusters WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 FOR NO KEY UPDATE',
      [lease.clusterId, lease.owner, lease.epoch],
    );
    return r.rowCount === 1;
  }

  /**
   * Gives the cluster back (only a lease still held). With `doneAt` (the
   * reconcile_requests value read when the last pass began) the flag is
   * cleared, but only if nobody asked for work since that pass began.
   */
  async releaseLease(lease: ClusterLease, doneAt: string | null): Promise<void> {
    await this.pool.query(
      `UPDATE clusters SET lease_owner = NULL, lease_until = NULL,
              needs_reconcile = needs_reconcile AND NOT ($4::bigint IS NOT NULL AND reconcile_requests = $4::bigint)
        WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3`,
      [lease.clusterId, lease.owner, lease.epoch, doneAt],
    );
  }

  /** A spec change: new spec, generation bumped. */
  async updateSpec(id: string, spec: ClusterSpec, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE clusters SET spec = $2, generation = generation + 1, updated_at = now() WHERE id = $1', [id, JSON.stringify(spec)]);
  }

  /** The stored slot map after a topology change: one row per shard, none beyond. */
  async replaceShards(clusterId: string, slots: SlotRange[][], db: Db = this.pool): Promise<void> {
    await db.query('DELETE FROM shards WHERE cluster_id = $1 AND shard_index >= $2', [clusterId, slots.length]);
    for (let i = 0; i < slots.length; i++) {
      await db.query(
        `INSERT INTO shards (cluster_id, shard_index, slots) VALUES ($1, $2, $3) ON CONFLICT (cluster_id, shard_index) DO UPDATE SET slots = EXCLUDED.slots`,
        [clusterId, i, JSON.stringify(slots[i])],
      );
    }
  }

  async setInstancesMemory(clusterId: string, memoryMb: number, db: Db = this.pool): Promise<void> {
    await db.query('UPDATE instances SET memory_mb = $2 WHERE cluster_id = $1 AND lost_at IS NULL', [clusterId, memoryMb]);
  }
}
