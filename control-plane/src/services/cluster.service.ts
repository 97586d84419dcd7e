import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  type ClusterSpec, type CreateClusterRequest, type OperationStep, LIMITS,
} from '@strata/api';
import { placeReplacement, planPlacement, planSlots, specProblem, type PlacementNode } from '@strata/engine';
import { inTransaction, type Db } from '../db/tx';
import { isUniqueViolation } from '../db/pg-errors';
import { conflict, notFound, unplaceable, validationFailed } from '../errors';
import { placementProblem } from './placement-bounds';
import type { SecretBox } from '../crypto/secret-box';
import { newPassword } from '../crypto/tokens';
import { createClusterCa } from '../crypto/cluster-ca';
import type { ClusterRow, ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { OperationRow, OperationStore } from '../stores/operation.store';
import { CREATE_STEPS, CREATE_STEPS_LOADING_KEYS, DELETE_STEPS } from '../reconciler/steps';
import { initialStatus, storedStatus, writeStatus } from '../reconciler/cluster-status';
import type { ClusterSecrets } from './cluster-secrets';
import { holdSecondPorts } from './second-ports';
import type { ObservedState } from '../observed/observed-state';
import { storedNodeStatus, type LivenessTimings } from '../observed/node-liveness';
import type { PlacementFence } from '../reconciler/cluster-context';

export interface ClusterServiceDeps {
  pool: pg.Pool;
  clusters: ClusterStore;
  nodes: NodeStore;
  operations: OperationStore;
  box: SecretBox;
  observed: ObservedState;
  /** When a node counts as offline or down (node-liveness.ts): only online nodes take instances or count copies. */
  liveness: LivenessTimings;
  /** Called after a change is committed, so the reconciler starts at once. */
  wake: (clusterId: string) => void;
  /** First port of cluster endpoints; null when the installation has no endpoint host. */
  endpointPortBase: number | null;
  /**
   * Memory (bytes) of the temporary engines restores run or are about to run, by node: each holds a
   * backup file while its keys are moved (BackupStore.temporaryEngineMemory).
   */
  temporaryEngineMemory?: (db: Db) => Promise<Map<string, number>>;
}

export const PLACEMENT_LOCK = 74617462;

/** A cluster created from a backup: what is stored beside it (in the create's transaction), and whether its create moves keys in. */
export interface RestoreRecord {
  record: (clusterId: string, db: Db) => Promise<void>;
  /** Other layout than the backup's: the create has a load-data step (keys moved by slot from temporary engines). */
  movesKeys: boolean;
}

export function withDefaults(req: CreateClusterRequest): ClusterSpec {
  return {
    shards: req.shards,
    replicasPerShard: req.replicasPerShard,
    memoryMbPerShard: req.memoryMbPerShard ?? LIMITS.memoryMbPerShard.default,
    durability: req.durability ?? 'none',
    evictionPolicy: req.evictionPolicy ?? 'noeviction',
    fencing: req.fencing ?? 'off',
    migrationPriority: req.migrationPriority ?? 'balanced',
    engineVersion: req.engineVersion ?? '7',
    tls: req.tls ?? 'off',
    tlsClientAuth: req.tlsClientAuth ?? 'none',
    maintenanceWindow: req.maintenanceWindow ?? null,
  };
}

const pending = (steps: readonly { name: string; title: string }[]): OperationStep[] =>
  steps.map((s) => ({ name: s.name, title: s.title, state: 'pending' }));

export class ClusterService {
  constructor(private readonly d: ClusterServiceDeps) {}

  /**
   * Nodes as the placement planner sees them: online state, free memory and used ports. The memory
   * used is what the node's instances reserve plus what restores' temporary engines there hold
   * while they run, so that a cluster created beside a restore does not overcommit the node.
   */
  async placementNodes(db: Db): Promise<PlacementNode[]> {
    const nodes = await this.d.nodes.list(db);
    // Replaced instances not cleaned up yet still hold their ports.
    const instances = await this.d.clusters.allInstances(db, { includeLost: true });
    const temporary = (await this.d.temporaryEngineMemory?.(db)) ?? new Map<string, number>();
    const now = Date.now();
    return nodes.map((n) => {
      const mine = instances.filter((i) => i.nodeId === n.id);
      return {
        id: n.id,
        name: n.name,
        // A draining node takes no new instances; a node declared down is not online, even before it is offline by silence.
        online: !n.draining && storedNodeStatus(n, this.d, this.d.liveness, now) === 'online',
        memoryMb: n.memoryMb,
        usedMemoryMb: mine.reduce((s, i) => s + i.memoryMb, 0) + Math.ceil((temporary.get(n.id) ?? 0) / (1024 * 1024)),
        // Also the ports of engines the node still runs for copies no longer in any row (a deleted
        // cluster's copy on a node that was away): placed there, a new instance would find its port taken.
        usedPorts: [...new Set([...mine.flatMap((i) => (i.secondPort ? [i.port, i.secondPort] : [i.port])), ...this.d.observed.enginePorts(n.id)])],
        sparePorts: this.d.observed.sparePorts(n.id),
      };
    });
  }

  /** `restore`: records, in the same transaction, what a cluster restored from a backup starts from. */
  async create(organizationId: string, req: CreateClusterRequest, restore?: RestoreRecord): Promise<{ cluster: ClusterRow; operation: OperationRow }> {
    const spec = withDefaults(req);
    if (spec.tls === 'preferred') {
      throw validationFailed([{ field: 'tls', message: 'preferred is a stage of an in-place switch: create with off or required' }],
        'A cluster is created with tls off or required; preferred (both protocols served while clients move) is reached by PATCH on a valkey-8 cluster.');
    }
    const problem = specProblem(spec);
    if (problem) throw validationFailed([{ field: problem.field, message: problem.reason }], `${problem.reason[0]!.toUpperCase()}${problem.reason.slice(1)}.`);
    const id = randomUUID();
    const tlsCa = spec.tls === 'required' ? await createClusterCa(req.name) : null;
    try {
      const result = await inTransaction(this.d.pool, async (db) => {
        await db.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
        const taken = await db.query('SELECT 1 FROM clusters WHERE organization_id = $1 AND name = $2', [organizationId, req.name]);
        if (taken.rowCount) throw nameTaken(req.name);

        const shape = { shards: spec.shards, replicasPerShard: spec.replicasPerShard, memoryMbPerShard: spec.memoryMbPerShard };
        const nodes = await this.placementNodes(db);
        const placement = planPlacement({ ...shape, nodes });
        if (!placement.ok) {
          // The field at fault (shards, memory or replicas), in human units.
          const problem = placementProblem(nodes, shape, placement);
          throw unplaceable(problem.message, [problem]);
        }

        const secrets: ClusterSecrets = {
          customerUser: 'app',
          customerPassword: newPassword(),
          internalUser: 'strata-internal',
          internalPassword: newPassword(),
          ...(tlsCa ? { tlsCa } : {}),
        };
        const cluster = await this.d.clusters.insert(
          {
            id, organizationId, name: req.name, spec, status: initialStatus(), secretsEnc: this.d.box.seal(JSON.stringify(secrets)),
            endpointPort: this.d.endpointPortBase === null ? null : await this.d.clusters.freeEndpointPort(this.d.endpointPortBase, db),
          },
          db,
        );
        const rows: InstanceRow[] = placement.instances.map((p) => ({
          id: randomUUID(), clusterId: id, shardIndex: p.shardIndex, role: p.role, preferredRole: p.role, replicaIndex: p.replicaIndex,
          nodeId: p.nodeId, port: p.port, memoryMb: spec.memoryMbPerShard,
        }));
        await this.d.clusters.insertInstances(rows, db);
        await restore?.record(id, db);
        await this.d.clusters.insertShards(planSlots(spec.shards).map((range, shardIndex) => ({ clusterId: id, shardIndex, slots: [range] })), db);
        const operation = await this.d.operations.create({ clusterId: id, organizationId, kind: 'create-cluster', steps: pending(restore?.movesKeys ? CREATE_STEPS_LOADING_KEYS : CREATE_STEPS) }, db);
        return { cluster, operation };
      });
      this.d.wake(id);
      return result;
    } catch (err) {
      if (isUniqueViolation(err, 'clusters_organization_id_name_key')) throw nameTaken(req.name);
      throw err;
    }
  }

  /**
   * Rebuilds one copy of a shard whose node went down: places a new replica
   * on another online node with room (never beside another copy of the
   * shard), and marks the lost instance, in one transaction under the
   * placement lock. If the lost copy was the shard's preferred primary, the
   * copy serving the shard now becomes the preferred one.
   */
  async replaceInstance(cluster: ClusterRow, lost: InstanceRow, fence?: PlacementFence): Promise<{ ok: true; replacement: InstanceRow } | { ok: false; reason: string }> {
    return inTransaction(this.d.pool, async (db) => {
      await db.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
      // A reconciler worker places under its lease: one that lost it writes nothing.
      await fence?.(db);
      const members = (await this.d.clusters.instances(cluster.id, db)).filter((i) => i.shardIndex === lost.shardIndex);
      if (!members.some((i) => i.id === lost.id)) return { ok: false as const, reason: 'already replaced' };
      const others = members.filter((i) => i.id !== lost.id);
      const placed = placeReplacement({
        memoryMb: lost.memoryMb,
        excludeNodeIds: [lost.nodeId, ...others.map((i) => i.nodeId)],
        nodes: await this.placementNodes(db),
      });
      if (!placed.ok) return { ok: false as const, reason: placed.reason };
      const replacement: InstanceRow = {
        id: randomUUID(), clusterId: cluster.id, shardIndex: lost.shardIndex, role: 'replica', preferredRole: 'replica',
        replicaIndex: Math.max(0, ...members.map((i) => i.replicaIndex)) + 1, nodeId: placed.nodeId, port: placed.port, memoryMb: lost.memoryMb,
      };
      await this.d.clusters.markLost(lost.id, db);
      await this.d.clusters.insertInstances([replacement], db);
      await holdSecondPorts({ clusters: this.d.clusters, placement: this }, cluster.id, [replacement], db);
      if (lost.preferredRole === 'primary') {
        const serving = others.find((i) => i.role === 'primary');
        if (serving) await this.d.clusters.setPreferredRole(serving.id, 'primary', db);
      }
      return { ok: true as const, replacement };
    });
  }

  /**
   * Drains, make before break: places one more replica of `draining`'s
   * shard on an online node that holds no copy of it, unless the shard
   * already has `copies` copies on online, undrained nodes. The draining
   * copy is left alone (removed once the new one is in sync).
   */
  async addReplica(cluster: ClusterRow, draining: InstanceRow, copies: number, fence?: PlacementFence): Promise<{ ok: true; replacement: InstanceRow | null } | { ok: false; reason: string }> {
    return inTransaction(this.d.pool, async (db) => {
      await db.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
      await fence?.(db);
      const members = (await this.d.clusters.instances(cluster.id, db)).filter((i) => i.shardIndex === draining.shardIndex);
      const nodes = await this.placementNodes(db);
      const online = new Set(nodes.filter((n) => n.online).map((n) => n.id));
      if (members.filter((i) => online.has(i.nodeId)).length >= copies) return { ok: true as const, replacement: null };
      const placed = placeReplacement({ memoryMb: draining.memoryMb, excludeNodeIds: members.map((i) => i.nodeId), nodes });
      if (!placed.ok) return { ok: false as const, reason: placed.reason };
      const replacement: InstanceRow = {
        id: randomUUID(), clusterId: cluster.id, shardIndex: draining.shardIndex, role: 'replica', preferredRole: 'replica',
        replicaIndex: Math.max(0, ...members.map((i) => i.replicaIndex)) + 1, nodeId: placed.nodeId, port: placed.port, memoryMb: draining.memoryMb,
      };
      await this.d.clusters.insertInstances([replacement], db);
      await holdSecondPorts({ clusters: this.d.clusters, placement: this }, cluster.id, [replacement], db);
      return { ok: true as const, replacement };
    });
  }

  /** Idempotent: deleting a cluster that is already being deleted returns the running delete. */
  async delete(organizationId: string, clusterId: string): Promise<{ cluster: ClusterRow; operation: OperationRow }> {
    const result = await inTransaction(this.d.pool, async (db) => {
      const locked = await db.query('SELECT id FROM clusters WHERE id = $1 AND organization_id = $2 FOR UPDATE', [clusterId, organizationId]);
      if (!locked.rowCount) throw notFound('Cluster');
      const row = (await this.d.clusters.get(clusterId, organizationId, db))!;
      const active = await this.d.operations.active(clusterId, db);
      if (active?.kind === 'delete-cluster') {
        return { cluster: (await this.d.clusters.get(clusterId, organizationId, db))!, operation: active };
      }
      if (active) await this.d.operations.cancelActive(clusterId, 'The cluster was deleted while this operation ran.', db);
      // Work not yet handed to an agent is moot now; removal follows.
      await db.query(`UPDATE tasks SET state = 'failed', error = 'cancelled: cluster deleted', updated_at = now() WHERE cluster_id = $1 AND state = 'pending'`, [clusterId]);
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      const operation = await this.d.operations.create({ clusterId, organizationId, kind: 'delete-cluster', steps: pending(DELETE_STEPS) }, db);
      await writeStatus(this.d.clusters, clusterId, { stored: storedStatus(row), operation, health: null }, db);
      return { cluster: (await this.d.clusters.get(clusterId, organizationId, db))!, operation };
    });
    this.d.wake(clusterId);
    return result;
  }
}

const nameTaken = (name: string) =>
  conflict('name_taken', `A cluster named "${name}" already exists in this organization.`, [{ field: 'name', message: 'a cluster with this name already exists' }]);
