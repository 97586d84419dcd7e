import type { BackupManifest, InstanceSeed, ObservedInstance } from '@strata/api';
import type { ClusterRow, ClusterStore, InstanceRow, LostInstanceRow, ShardRow } from '../stores/cluster.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import type { TaskRow, TaskStore } from '../stores/task.store';
import type { OperationRow, OperationStore } from '../stores/operation.store';
import type { EventStore } from '../stores/event.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import type { Db } from '../db/tx';
import { healthyMembers } from '../observed/instance-health';
import { DEFAULT_TIMINGS, type ReconcilerTimings } from './timings';
import type { DatabaseUserRow } from '../database-users/database-user.store';
import type { Transaction } from './lease-fence';

export interface ReconcileDeps {
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  operations: OperationStore;
  events: EventStore;
  observed: ObservedState;
  box: SecretBox;
  /** Tells an agent's long-poll that it has work. */
  notifyNode: (nodeId: string) => void;
  /** Retries of one task before the operation fails. */
  maxTaskAttempts?: number;
  healing: HealingSettings;
  /** A node silent this long is down. */
  nodeDownAfterMs: number;
  /** A node silent this long while its engines' peers cannot reach them is down (node-liveness.ts); nodeDownAfterMs when absent. */
  nodeDownConfirmedAfterMs?: number;
  /** Every wait the reconciler and the steps make (DEFAULT_TIMINGS when absent, e.g. in unit tests). */
  timings?: Partial<ReconcilerTimings>;
  /** The wall clock (maintenance windows); Date.now when absent. */
  now?: () => number;
  /** Tests only: the fault-point file (see fault-point.ts). */
  faultFile?: string | null;
  /**
   * Places a new copy of a lost instance's shard on another node and marks
   * the lost one (one transaction, under the placement lock).
   */
  replaceInstance?: (cluster: ClusterRow, lost: InstanceRow, fence?: PlacementFence) => Promise<{ ok: true; replacement: InstanceRow } | { ok: false; reason: string }>;
  /**
   * Runs `fn` in one database transaction (a task or role write and the
   * events that tell the user about it commit together). Without it (tests
   * of single steps), the statements run one by one on the pool. A
   * reconciler worker's passes get one fenced by its lease (lease-fence.ts):
   * every write of a pass goes through it (`inTx`).
   */
  transaction?: Transaction;
  /**
   * Drains: places one more replica of `draining`'s shard on another node
   * (never beside another copy), unless the shard already has `copies`
   * copies off draining nodes. The draining copy stays until it is in sync.
   */
  addReplica?: (cluster: ClusterRow, draining: InstanceRow, copies: number, fence?: PlacementFence) => Promise<{ ok: true; replacement: InstanceRow | null } | { ok: false; reason: string }>;
  /** A cluster restored from a backup: the file its shard's primary starts from (null: it starts empty). */
  restoreSeed?: (clusterId: string, shard: number) => Promise<InstanceSeed | null>;
  /** TLS clusters: how long before its certificate expires an instance gets a fresh one (STRATA_TLS_RENEW_BEFORE_DAYS; 30 days when absent). */
  tlsRenewBeforeMs?: number;
  /** A cluster restored into another layout: the backup's files (by its shard index) whose keys are moved in (null: none). */
  restoreFiles?: (clusterId: string) => Promise<InstanceSeed[] | null>;
  /** A restored cluster: the backup it was restored from, how, and its manifest (null: not a restore). */
  restoreOf?: (clusterId: string) => Promise<{ backupId: string; mode: 'seed' | 'move'; manifest: BackupManifest } | null>;
  /** The cluster's database users as stored and the generation of their last change (none when absent, e.g. in unit tests). */
  databaseUsers?: (clusterId: string) => Promise<{ generation: number; users: DatabaseUserRow[] } | null>;
  /** TLS clusters: the issuers of the live client certificates, which the instances trust beside the CA (none when absent). */
  clientTrustIssuers?: (clusterId: string) => Promise<string[]>;
}

/** Run inside a placement's transaction before it writes: throws (LeaseLost) when the worker placing no longer holds the cluster's lease. */
export type PlacementFence = (db: Db) => Promise<void>;

export interface HealingSettings {
  /** Promote a replica as soon as an agent sees its primary exit (otherwise Redis's own detection). */
  fastFailover: boolean;
  /** With fast failover off: how long Redis gets before Strata steps in. */
  failoverGraceMs: number;
  /** How long a cluster must be healthy before primaries move back to their preferred instances. */
  rebalanceAfterMs: number;
}

/** A snapshot of desired and observed state for one pass over one cluster. */
export interface ClusterContext {
  deps: ReconcileDeps;
  cluster: ClusterRow;
  /** The operation whose tasks `tasks` holds; null for healing work. */
  operationId: string | null;
  /** That operation, when a pass drives one. */
  operation?: OperationRow;
  instances: InstanceRow[];
  /** Instances replaced after their node went down, until forgotten and cleaned up. */
  lost: LostInstanceRow[];
  shards: ShardRow[];
  nodes: Map<string, NodeRow>;
  tasks: Map<string, TaskRow>;
  observe(instanceId: string): ObservedInstance | null;
  /** Has this node reported since this process started? */
  nodeReportedAt(nodeId: string): number | null;
  /** Just after this process started and not heard from yet: nothing is known about its instances either way. */
  awaitingFirstReport(nodeId: string): boolean;
  /** Does a reporting agent serve the cluster's stable endpoint? null: the cluster has none. */
  endpointServed: boolean | null;
  /** The cluster's database users as stored and the generation of their last change (absent: none). */
  databaseUsers?: { generation: number; users: DatabaseUserRow[] };
  /** TLS clusters: the issuers of the live client certificates (loaded only for a TLS cluster). */
  clientTrustIssuers?: string[];
}

/**
 * Loads one cluster's snapshot. The health pass, which looks at every ready
 * cluster each second, passes the node list it already has and skips tasks.
 */
export async function loadContext(
  deps: ReconcileDeps, cluster: ClusterRow, operationId: string | null, opts: { nodes?: NodeRow[] } = {},
): Promise<ClusterContext> {
  const [instances, lost, shards, nodes, tasks, databaseUsers, clientTrustIssuers] = await Promise.all([
    deps.clusters.instances(cluster.id),
    deps.clusters.lostInstances(cluster.id),
    deps.clusters.shards(cluster.id),
    opts.nodes ?? deps.nodes.list(),
    deps.tasks.latestByKey(cluster.id, operationId),
    deps.databaseUsers?.(cluster.id) ?? Promise.resolve(null),
    cluster.spec.tls === 'required' && cluster.tlsLayout === 'tls' ? deps.clientTrustIssuers?.(cluster.id) ?? Promise.resolve(undefined) : Promise.resolve(undefined),
  ]);
  const placedOn = new Map(instances.map((i) => [i.id, i.nodeId]));
  return {
    deps,
    cluster,
    operationId,
    instances,
    lost,
    shards,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    tasks,
    observe: (id) => deps.observed.instance(id, placedOn.get(id)),
    nodeReportedAt: (id) => deps.observed.lastReportAt(id),
    awaitingFirstReport: (id) => deps.observed.awaitingFirstReport(id),
    endpointServed: cluster.endpointPort === null || cluster.endpointPort === undefined ? null
      : nodes.some((n) => deps.observed.endpointPorts?.(n.id).includes(cluster.endpointPort!)),
    databaseUsers: databaseUsers ?? undefined,
    clientTrustIssuers,
  };
}

/**
 * The way every write of a pass is made: in one transaction when the deps
 * provide one (a worker's is fenced by its lease), otherwise statement by
 * statement on the pool.
 */
export const inTx = <T>(ctx: { deps: Pick<ReconcileDeps, 'transaction'> }, fn: (db: Db | undefined) => Promise<T>): Promise<T> =>
  ctx.deps.transaction ? ctx.deps.transaction(fn) : fn(undefined);

/** The reconciler's timings: what main.ts passed in, today's values for the rest. */
export const timingsOf = (deps: Pick<ReconcileDeps, 'timings'>): ReconcilerTimings => ({ ...DEFAULT_TIMINGS, ...deps.timings });

export const address = (ctx: ClusterContext, i: InstanceRow) => ({ host: ctx.nodes.get(i.nodeId)?.address ?? 'unknown', port: i.port });

/** The healthy members of the cluster now (the one rule: `isHealthyMember`, via observed/instance-health.ts). */
export function healthyMembersOf(ctx: ClusterContext): Set<string> {
  return healthyMembers(ctx.instances, ctx.lost.filter((l) => !l.forgottenAt).length, { observe: ctx.observe });
}
