/**
 * Topology changes of a running cluster: PATCH (with a dry run),
 * switchover and rolling restart. The pure planner in `engine` decides; this service checks the
 * request against the running operation, stores the new spec, the new
 * instance rows and the operation in one transaction under the placement
 * lock, and wakes the reconciler. A refused change stores nothing.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CA_RETIRE_AFTER_SECONDS, ENGINE_LABELS, LIMITS, type Capacity, type CapacityQuery, type ClusterSpec, type OperationStep, type RestartClusterRequest, type RotateCaRequest, type SwitchoverRequest, type TopologyPlan, type UpdateClusterRequest } from '@strata/api';
import { planTlsChange, planTopologyChange, restartOrder, servesBoth, type PlacementNode, type TopologyInstance } from '@strata/engine';
import { largest } from './placement-bounds';
import { holdSecondPorts } from './second-ports';
import { specProblem } from '@strata/engine';
import { inTransaction, type Db } from '../db/tx';
import { AppError, conflict, doesNotFit, notFound, operationInProgress, unplaceable, validationFailed } from '../errors';
import type { ClusterRow, ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import type { OperationRow, OperationStore } from '../stores/operation.store';
import type { ObservedState } from '../observed/observed-state';
import { inSyncWith } from '../observed/instance-health';
import { storedStatus, writeStatus } from '../reconciler/cluster-status';
import { PLACEMENT_LOCK, type ClusterService } from './cluster.service';
import type { SecretBox } from '../crypto/secret-box';
import { createClusterCa, crossCertificate } from '../crypto/cluster-ca';
import { openSecrets, type ClusterSecrets } from './cluster-secrets';
import { RESTART_STEPS, ROTATE_CA_STEPS, SWITCHOVER_STEPS, tlsServedWords, tlsStageStep, type RestartPlanRecord, type RotateCaPlanRecord, type SwitchoverPlanRecord, type TlsSwitchPlanRecord, type UpdatePlanRecord } from '../reconciler/update-plan';
import { shardLabel, shardName } from '@strata/api';

export interface TopologyServiceDeps {
  pool: pg.Pool;
  clusters: ClusterStore;
  nodes: NodeStore;
  operations: OperationStore;
  observed: ObservedState;
  placement: Pick<ClusterService, 'placementNodes'>;
  /** Latest live keys and used memory of an instance (metrics), or null. */
  liveData: (instanceId: string) => { keys: number; bytes: number } | null;
  wake: (clusterId: string) => void;
  /** Opens and seals the clusters' secrets (a CA rotation replaces the CA). */
  box?: SecretBox;
}

const CHANGEABLE = ['ready', 'degraded'];

/**
 * What a PATCH may not change in place: the engine (set at create) and, on a Redis 7.0 cluster, TLS (7.0 announces one
 * client port on the cluster bus, so while both protocols were served cluster-aware clients of the other one would be
 * redirected to the wrong port; Valkey 8 announces both).
 */
function refuseEngineChanges(cluster: ClusterRow, req: UpdateClusterRequest): void {
  const spec = cluster.spec;
  if (req.engineVersion !== undefined && req.engineVersion !== spec.engineVersion) {
    throw new AppError(422, 'engine_change_unsupported', 'Engine is set at create',
      `Cluster ${cluster.name} runs ${ENGINE_LABELS[spec.engineVersion]}; the engine cannot be changed in place. Create a cluster with engineVersion ${req.engineVersion} and restore a backup into it.`,
      [{ field: 'engineVersion', message: `set at create (${spec.engineVersion})` }]);
  }
  if (req.tls !== undefined && req.tls !== spec.tls && spec.engineVersion === '7') {
    throw new AppError(422, 'tls_switch_needs_valkey', 'TLS cannot be switched on Redis 7.0',
      `Cluster ${cluster.name} runs Redis 7.0, which announces only one client port on the cluster bus: while plain text and TLS were both served, cluster-aware clients would be sent to the other protocol's port. Turning TLS on or off in place needs the valkey-8 engine; create a cluster with "tls": "${req.tls}" (and restore a backup into it).`,
      [{ field: 'tls', message: 'needs engineVersion valkey-8 to change in place' }]);
  }
}

/** A PATCH that switches TLS: `tls` differs from what the instances serve. It names nothing else that changes. */
function tlsSwitchAsked(cluster: ClusterRow, req: UpdateClusterRequest): boolean {
  if (req.tls === undefined || planTlsChange(cluster.tlsLayout, req.tls).length === 0) return false;
  const others = Object.entries(req).filter(([k, v]) => k !== 'tls' && v !== undefined && JSON.stringify(v) !== JSON.stringify(cluster.spec[k as keyof ClusterSpec]));
  if (others.length) {
    throw validationFailed([{ field: 'tls', message: `change tls on its own (this request also changes ${others.map(([k]) => k).join(', ')})` }],
      'A TLS switch runs as an operation of its own: change tls in one request and the rest in another.');
  }
  return true;
}

export class TopologyService {
  constructor(private readonly d: TopologyServiceDeps) {}

  private async lockCluster(db: Db, organizationId: string, clusterId: string): Promise<ClusterRow> {
    await db.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
    const locked = await db.query('SELECT id FROM clusters WHERE id = $1 AND organization_id = $2 FOR UPDATE', [clusterId, organizationId]);
    if (!locked.rowCount) throw notFound('Cluster');
    const active = await this.d.operations.active(clusterId, db);
    if (active) throw operationInProgress(active.id, active.kind);
    const cluster = (await this.d.clusters.get(clusterId, organizationId, db))!;
    if (!CHANGEABLE.includes(cluster.status.phase)) {
      throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; topology changes need a ready or degraded cluster.`);
    }
    return cluster;
  }

  /** What the change planner needs besides the two specs: instances, slots, nodes as placement sees them, each shard's data. */
  private async planInputs(db: Db, clusterId: string) {
    const [instances, shards, nodes] = await Promise.all([
      this.d.clusters.instances(clusterId, db), this.d.clusters.shards(clusterId, db), this.d.placement.placementNodes(db),
    ]);
    const shardSlots = shards.map((s) => s.slots);
    const data = shardSlots.map((_, shard) => {
      const primary = instances.find((i) => i.shardIndex === shard && i.role === 'primary');
      return primary ? this.d.liveData(primary.id) : null;
    });
    const topoInstances: TopologyInstance[] = instances.map((i) => ({ id: i.id, shard: i.shardIndex, role: i.role, replicaIndex: i.replicaIndex, nodeId: i.nodeId, port: i.port }));
    return { instances, shards, shardSlots, nodes, data, topoInstances };
  }

  /**
   * GET /v1/capacity?clusterId=: the wizard's bounds for the Settings tab,
   * asked of the change planner itself (what PATCH accepts), one field at a
   * time from the cluster's spec with the replicas and memory asked: the
   * most replicas, the most memory per shard, the most shards. The
   * cluster's own instances count as room; data that would not fit in less
   * memory or fewer shards is the dry run's to say.
   */
  async changeCapacity(organizationId: string, clusterId: string, q: CapacityQuery, platformAdmin: boolean): Promise<Capacity> {
    const cluster = await this.d.clusters.get(clusterId, organizationId);
    if (!cluster) throw notFound('Cluster');
    const { shardSlots, nodes, data, topoInstances } = await this.planInputs(this.d.pool, clusterId);
    const spec = cluster.spec;
    const online = nodes.filter((n) => n.online);
    const fits = (change: Partial<ClusterSpec>): boolean => {
      const desired = { ...spec, ...change };
      const plan = planTopologyChange({ current: spec, desired, shardSlots, instances: topoInstances, nodes: nodes.map(copyNode), data });
      return plan.ok || plan.code === 'unchanged' || plan.code === 'invalid' || plan.code === 'does_not_fit';
    };
    const { replicasPerShard, memoryMbPerShard } = q;
    const maxMemory = largest(LIMITS.memoryMbPerShard.min, LIMITS.memoryMbPerShard.max, (mb) => fits({ replicasPerShard, memoryMbPerShard: mb }));
    const maxShards = largest(LIMITS.shards.min, LIMITS.shards.max, (n) => fits({ replicasPerShard, memoryMbPerShard, shards: n }));
    return {
      onlineNodes: online.length,
      replicasPerShard,
      memoryMbPerShard,
      maxReplicasPerShard: Math.min(LIMITS.replicasPerShard.max, Math.max(0, online.length - 1)),
      maxMemoryMbPerShard: Math.max(0, maxMemory),
      maxShards: Math.max(0, maxShards),
      nodesUsed: null,
      ...(platformAdmin ? { nodeFreeMemoryMb: online.map((n) => Math.max(0, n.memoryMb - n.usedMemoryMb)).sort((a, b) => b - a) } : {}),
    };
  }

  /**
   * PATCH /v1/clusters/{id} naming only maintenanceWindow: stored at once (no
   * engine changes), also while an operation runs or waits for the window,
   * which then follows the new window.
   */
  async setMaintenanceWindow(organizationId: string, clusterId: string, window: ClusterSpec['maintenanceWindow']): Promise<ClusterRow> {
    const cluster = await inTransaction(this.d.pool, async (db) => {
      const locked = await db.query('SELECT id FROM clusters WHERE id = $1 AND organization_id = $2 FOR UPDATE', [clusterId, organizationId]);
      if (!locked.rowCount) throw notFound('Cluster');
      const c = (await this.d.clusters.get(clusterId, organizationId, db))!;
      if (c.status.phase === 'deleting') throw conflict('invalid_state', 'The cluster is being deleted.');
      if (JSON.stringify(c.spec.maintenanceWindow) === JSON.stringify(window)) {
        throw validationFailed([{ field: 'maintenanceWindow', message: 'the cluster already has this maintenance window' }], 'Nothing to change: the cluster already has this spec.');
      }
      await this.d.clusters.updateSpec(clusterId, { ...c.spec, maintenanceWindow: window }, db);
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      return (await this.d.clusters.get(clusterId, organizationId, db))!;
    });
    this.d.wake(clusterId);
    return cluster;
  }

  /** PATCH /v1/clusters/{id}: the plan, and unless `dryRun`, the change started. */
  async update(organizationId: string, clusterId: string, req: UpdateClusterRequest, dryRun: boolean): Promise<{ plan: TopologyPlan; cluster: ClusterRow; operation: OperationRow | null }> {
    const result = await inTransaction(this.d.pool, async (db) => {
      const cluster = await this.lockCluster(db, organizationId, clusterId);
      const from = cluster.spec;
      refuseEngineChanges(cluster, req);
      if (tlsSwitchAsked(cluster, req)) return this.startTlsSwitch(db, cluster, req.tls!, dryRun);
      const to: ClusterSpec = { ...from, ...Object.fromEntries(Object.entries(req).filter(([, v]) => v !== undefined)) };
      const [{ instances, shards, shardSlots, nodes, data, topoInstances }, nodeRows] = await Promise.all([this.planInputs(db, clusterId), this.d.nodes.list(db)]);
      const plan = planTopologyChange({ current: from, desired: to, shardSlots, instances: topoInstances, nodes, data });
      if (!plan.ok) {
        const errors = [{ field: plan.field, message: plan.reason }];
        if (plan.code === 'unchanged') throw validationFailed(errors, 'Nothing to change: the cluster already has this spec.');
        if (plan.code === 'invalid') throw validationFailed(errors, `${plan.reason[0]!.toUpperCase()}${plan.reason.slice(1)}.`);
        if (plan.code === 'does_not_fit') throw doesNotFit(plan.reason, errors);
        throw unplaceable(plan.reason, errors);
      }
      const names = new Map(nodeRows.map((n: NodeRow) => [n.id, n.name]));
      const byId = new Map(instances.map((i) => [i.id, i]));
      const addedRows: InstanceRow[] = plan.add.map((a) => ({
        id: randomUUID(), clusterId, shardIndex: a.shard, role: a.role, preferredRole: a.role, replicaIndex: a.replicaIndex, nodeId: a.nodeId, port: a.port, memoryMb: to.memoryMbPerShard,
      }));
      const publicPlan: TopologyPlan = {
        changes: plan.changes,
        slotMoves: plan.moves,
        addInstances: addedRows.map((a) => ({ instanceId: dryRun ? null : a.id, shard: a.shardIndex, role: a.role, nodeId: a.nodeId, nodeName: names.get(a.nodeId) ?? a.nodeId, port: a.port })),
        removeInstances: plan.remove.map((id) => {
          const i = byId.get(id)!;
          return { instanceId: id, shard: i.shardIndex, role: i.role, nodeId: i.nodeId, nodeName: names.get(i.nodeId) ?? i.nodeId, port: i.port };
        }),
        steps: plan.steps,
        online: plan.online,
        notes: plan.notes,
        totals: plan.totals,
        migrationPriority: to.migrationPriority,
        migrationCosts: plan.migrationCosts,
      };
      if (dryRun) return { plan: publicPlan, cluster, operation: null };

      await this.d.clusters.insertInstances(addedRows, db);
      await holdSecondPorts({ clusters: this.d.clusters, placement: this.d.placement }, clusterId, addedRows, db, cluster.tlsLayout);
      if (to.memoryMbPerShard !== from.memoryMbPerShard) await this.d.clusters.setInstancesMemory(clusterId, to.memoryMbPerShard, db);
      // New shards exist (with no slots yet) from now on; slot ranges follow the migration.
      await this.d.clusters.insertShards(plan.targetSlots.map((_, i) => i).filter((i) => i >= shards.length).map((i) => ({ clusterId, shardIndex: i, slots: [] })), db);
      await this.d.clusters.updateSpec(clusterId, to, db);
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      const record: UpdatePlanRecord = {
        kind: 'update', from, to, originalSlots: shardSlots, targetSlots: plan.targetSlots,
        added: addedRows.map((a) => a.id), removed: plan.remove,
      };
      const steps: OperationStep[] = plan.steps.map((s) => ({ name: s.name, title: s.title, state: 'pending' }));
      const operation = await this.d.operations.create({ clusterId, organizationId, kind: 'update-cluster', steps, plan: record }, db);
      await writeStatus(this.d.clusters, clusterId, { stored: storedStatus(cluster), operation, health: null }, db);
      return { plan: publicPlan, cluster: (await this.d.clusters.get(clusterId, organizationId, db))!, operation };
    });
    if (result.operation) this.d.wake(clusterId);
    return result;
  }

  /**
   * A TLS switch (valkey-8): the stages from what the instances serve to what `tls` asks, a CA made now if the cluster
   * has none, a second port per instance held (placement's ports, under its lock) for as long as both protocols are
   * served, the spec stored and the tls-switch operation started.
   */
  private async startTlsSwitch(db: Db, cluster: ClusterRow, to: NonNullable<UpdateClusterRequest['tls']>, dryRun: boolean) {
    const stages = planTlsChange(cluster.tlsLayout, to);
    const problem = specProblem({ ...cluster.spec, tls: to });
    if (problem) throw validationFailed([{ field: problem.field, message: problem.reason }], `${problem.reason[0]!.toUpperCase()}${problem.reason.slice(1)}.`);
    const steps = stages.map((s) => tlsStageStep(s, 1 / stages.length));
    const plan: TopologyPlan = {
      changes: [{ field: 'tls', from: cluster.spec.tls, to }], slotMoves: [], addInstances: [], removeInstances: [],
      steps: steps.map(({ name, title }) => ({ name, title })), online: true,
      notes: [
        `Now served: ${tlsServedWords(cluster.tlsLayout)}; after: ${tlsServedWords(stages[stages.length - 1]!.after)}. No engine restarts; replicas before primaries; replication follows with a partial resynchronisation.`,
        ...(stages.some((s) => servesBoth(s.after)) ? ['While both protocols are served each instance also listens on a second port; clients of either protocol are sent to ports they can speak.'] : []),
        ...(!cluster.tlsBus && to !== 'off' ? ["The cluster bus stays plain text: it keeps the protocol the cluster was created with (Valkey reads tls-cluster only at start)."] : []),
      ],
      totals: { slots: 0, keys: 0, bytes: 0 }, migrationPriority: cluster.spec.migrationPriority, migrationCosts: [],
    };
    if (dryRun) return { plan, cluster, operation: null };
    const box = this.d.box!;
    const secrets = openSecrets(box, cluster.secretsEnc);
    if (!secrets.tlsCa) await this.d.clusters.setSecrets(cluster.id, box.seal(JSON.stringify({ ...secrets, tlsCa: await createClusterCa(cluster.name) })), db);
    // Every stage but the last serves both protocols (the second ports are what it serves the other one on).
    await holdSecondPorts({ clusters: this.d.clusters, placement: this.d.placement }, cluster.id, await this.d.clusters.instances(cluster.id, db), db, 'plain+tls');
    await this.d.clusters.updateSpec(cluster.id, { ...cluster.spec, tls: to }, db);
    await this.d.clusters.markNeedsReconcile(cluster.id, db);
    const record: TlsSwitchPlanRecord = { kind: 'tls-switch', from: cluster.tlsLayout, to, stages };
    const operation = await this.d.operations.create({
      clusterId: cluster.id, organizationId: cluster.organizationId, kind: 'tls-switch', plan: record, steps: steps.map((s) => ({ name: s.name, title: s.title, state: 'pending' as const })),
    }, db);
    await writeStatus(this.d.clusters, cluster.id, { stored: storedStatus(cluster), operation, health: null }, db);
    return { plan, cluster: (await this.d.clusters.get(cluster.id, cluster.organizationId, db))!, operation };
  }

  /** POST /v1/clusters/{id}/shards/{index}/switchover. */
  async switchover(organizationId: string, clusterId: string, shard: number, req: SwitchoverRequest): Promise<{ cluster: ClusterRow; operation: OperationRow }> {
    const result = await inTransaction(this.d.pool, async (db) => {
      const cluster = await this.lockCluster(db, organizationId, clusterId);
      if (!Number.isInteger(shard) || shard < 0 || shard >= cluster.spec.shards) {
        throw validationFailed([{ field: 'index', message: `shard index must be 0..${cluster.spec.shards - 1}` }]);
      }
      const members = (await this.d.clusters.instances(clusterId, db)).filter((i) => i.shardIndex === shard);
      const primary = members.find((i) => i.role === 'primary');
      if (!primary) throw conflict('invalid_state', `${shardLabel(shard)} has no recorded primary right now.`);
      const replicas = members.filter((i) => i.role === 'replica');
      const view = { observe: (id: string) => { const i = members.find((m) => m.id === id); return i ? this.d.observed.instance(i.id, i.nodeId) : null; } };
      const inSync = (i: InstanceRow) => inSyncWith(i, primary, view);
      let target: InstanceRow | undefined;
      if (req.targetInstanceId) {
        target = replicas.find((i) => i.id === req.targetInstanceId);
        if (!target) throw validationFailed([{ field: 'targetInstanceId', message: `not a replica of ${shardName(shard)}` }]);
        if (!inSync(target)) throw new AppError(422, 'invalid_state', 'Replica not in sync', 'That replica is not in sync with its primary right now; try again in a moment.', [{ field: 'targetInstanceId', message: 'not in sync' }]);
      } else {
        target = replicas.filter(inSync).sort((a, b) => (this.d.observed.instance(b.id, b.nodeId)?.cluster?.replOffset ?? 0) - (this.d.observed.instance(a.id, a.nodeId)?.cluster?.replOffset ?? 0))[0];
        if (!target) throw new AppError(422, 'invalid_state', 'No replica to switch to', `${shardLabel(shard)} has no in-sync replica to promote (add one with replicasPerShard).`, [{ field: 'index', message: 'no in-sync replica' }]);
      }
      const plan: SwitchoverPlanRecord = { kind: 'switchover', shard, targetInstanceId: target.id, fromInstanceId: primary.id };
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      const operation = await this.d.operations.create({
        clusterId, organizationId, kind: 'switchover', plan, steps: SWITCHOVER_STEPS.map((s) => ({ name: s.name, title: s.title, state: 'pending' as const })),
      }, db);
      return { cluster, operation };
    });
    this.d.wake(clusterId);
    return result;
  }

  /** POST /v1/clusters/{id}/restart: every instance restarted once, replicas first, primaries after a data-safe switchover. */
  async restart(organizationId: string, clusterId: string, req: RestartClusterRequest = {}): Promise<{ cluster: ClusterRow; operation: OperationRow }> {
    const result = await inTransaction(this.d.pool, async (db) => {
      const cluster = await this.lockCluster(db, organizationId, clusterId);
      const window = cluster.spec.maintenanceWindow;
      if (req.when === 'maintenance_window' && !window) {
        throw new AppError(422, 'no_maintenance_window', 'No maintenance window', 'The cluster has no maintenance window to wait for; set one (maintenanceWindow) or ask for the restart now.',
          [{ field: 'when', message: 'the cluster has no maintenance window' }]);
      }
      const when = req.force ? 'now' : req.when ?? (window ? 'maintenance_window' : 'now');
      if (cluster.status.phase !== 'ready') {
        throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; a rolling restart starts only on a ready cluster (it would pause at once).`);
      }
      if (cluster.spec.replicasPerShard === 0 && cluster.spec.durability === 'none') {
        throw new AppError(422, 'would_lose_data', 'Restart would lose data',
          'Every shard has only its primary and the cluster keeps no append-only file (durability none): restarting a primary would empty its shard. Add a replica (replicasPerShard) or an append-only file (durability) first.',
          [{ field: 'replicasPerShard', message: 'at least 1 replica per shard, or durability aof-everysec / aof-always' }]);
      }
      const instances = await this.d.clusters.instances(clusterId, db);
      const plan: RestartPlanRecord = { kind: 'restart', order: restartOrder(instances.map((i) => ({ id: i.id, shard: i.shardIndex, role: i.role }))), when };
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      const operation = await this.d.operations.create({
        clusterId, organizationId, kind: 'restart-cluster', plan, steps: RESTART_STEPS.map((s) => ({ name: s.name, title: s.title, state: 'pending' as const })),
      }, db);
      return { cluster, operation };
    });
    this.d.wake(clusterId);
    return result;
  }

  /**
   * Starts a CA rotation: a new CA is made now and becomes the one that signs
   * (its cross-certificate from the old CA goes after everything it signs,
   * and the old CA stays trusted); the rotate-ca operation then moves every
   * instance over and retires the old CA.
   */
  async rotateCa(organizationId: string, clusterId: string, req: RotateCaRequest = {}): Promise<{ cluster: ClusterRow; operation: OperationRow }> {
    const box = this.d.box!;
    const result = await inTransaction(this.d.pool, async (db) => {
      const cluster = await this.lockCluster(db, organizationId, clusterId);
      const secrets = openSecrets(box, cluster.secretsEnc);
      if (cluster.spec.tls !== 'required' || cluster.tlsLayout !== 'tls' || !secrets.tlsCa) throw conflict('tls_off', `Cluster ${cluster.name} does not use TLS: it has no CA to rotate.`);
      const next = await createClusterCa(cluster.name);
      const rotated: ClusterSecrets = { ...secrets, tlsCa: next, tlsCaRotation: { previous: secrets.tlsCa.certificate, cross: await crossCertificate(next, secrets.tlsCa) } };
      await this.d.clusters.setSecrets(clusterId, box.seal(JSON.stringify(rotated)), db);
      const plan: RotateCaPlanRecord = { kind: 'rotate-ca', retireAfterSeconds: req.retireAfterSeconds ?? CA_RETIRE_AFTER_SECONDS.default };
      await this.d.clusters.markNeedsReconcile(clusterId, db);
      const operation = await this.d.operations.create({
        clusterId, organizationId, kind: 'rotate-ca', plan, steps: ROTATE_CA_STEPS.map((s) => ({ name: s.name, title: s.title, state: 'pending' as const })),
      }, db);
      return { cluster, operation };
    });
    this.d.wake(clusterId);
    return result;
  }
}

const copyNode = (n: PlacementNode): PlacementNode => ({ ...n, usedPorts: [...n.usedPorts], sparePorts: [...(n.sparePorts ?? [])] });
