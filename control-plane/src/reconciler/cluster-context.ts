import type { ObservedInstance } from '@strata/api';
import type { ClusterRow, ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { NodeRow, NodeStore } from '../stores/node.store';
import type { TaskRow, TaskStore } from '../stores/task.store';
import type { OperationStore } from '../stores/operation.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';

export interface ReconcileDeps {
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  operations: OperationStore;
  observed: ObservedState;
  box: SecretBox;
  /** Tells an agent's long-poll that it has work. */
  notifyNode: (nodeId: string) => void;
  /** Retries of one task before the operation fails. */
  maxTaskAttempts?: number;
}

/** A snapshot of desired and observed state for one pass over one cluster. */
export interface ClusterContext {
  deps: ReconcileDeps;
  cluster: ClusterRow;
  instances: InstanceRow[];
  nodes: Map<string, NodeRow>;
  tasks: Map<string, TaskRow>;
  observe(instanceId: string): ObservedInstance | null;
  /** Has this node reported since this process started? */
  nodeReportedAt(nodeId: string): number | null;
}

/**
 * Loads one cluster's snapshot. The health pass, which looks at every ready
 * cluster each second, passes the node list it already has and skips tasks.
 */
export async function loadContext(
  deps: ReconcileDeps, cluster: ClusterRow, opts: { nodes?: NodeRow[]; tasks?: boolean } = {},
): Promise<ClusterContext> {
  const [instances, nodes, tasks] = await Promise.all([
    deps.clusters.instances(cluster.id),
    opts.nodes ?? deps.nodes.list(),
    opts.tasks === false ? new Map<string, TaskRow>() : deps.tasks.latestByKey(cluster.id),
  ]);
  const placedOn = new Map(instances.map((i) => [i.id, i.nodeId]));
  return {
    deps,
    cluster,
    instances,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    tasks,
    observe: (id) => deps.observed.instance(id, placedOn.get(id)),
    nodeReportedAt: (id) => deps.observed.lastReportAt(id),
  };
}

export const address = (ctx: ClusterContext, i: InstanceRow) => ({ host: ctx.nodes.get(i.nodeId)?.address ?? 'unknown', port: i.port });

/**
 * Is this instance a healthy member of the cluster as planned? True when it
 * runs, sees cluster_state ok, knows every member and has the planned role
 * (a replica following its own shard's primary with the link up).
 */
export function isFormedMember(ctx: ClusterContext, i: InstanceRow): boolean {
  const o = ctx.observe(i.id);
  const view = o?.cluster;
  if (!o || o.state !== 'running' || !view) return false;
  if (view.state !== 'ok' || view.knownNodes !== ctx.instances.length || view.role !== i.role) return false;
  if (i.role === 'primary') return true;
  const primary = ctx.instances.find((p) => p.shardIndex === i.shardIndex && p.role === 'primary');
  const primaryId = primary ? ctx.observe(primary.id)?.cluster?.myId : undefined;
  return !!primaryId && view.primaryId === primaryId && view.primaryLinkUp === true;
}
