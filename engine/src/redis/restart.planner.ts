/**
 * The rolling restart planner: every instance of a cluster restarted once,
 * one at a time, without losing an acknowledged write. Per shard (in
 * order): its replicas first, each waited for until it is back in sync;
 * then its primary hands its role to an in-sync replica (a data-safe
 * CLUSTER FAILOVER) and is restarted as a replica. A shard without
 * replicas restarts its primary in place (the control plane allows that
 * only with an append-only file, which it reloads). Before each restart
 * every member must be healthy: a failover or a crash elsewhere pauses the
 * roll until the cluster is whole again.
 */
import type { OperationAction } from './cluster-action';
import { isInSyncReplica, primaryNodeId } from './member-health';
import { healthyIds, nodeDownFailure, type OpInstance, type StepPlan, type TaskView } from './operation.planner';
import { shardLabel } from '../shard-label';

/** The roll's own tasks, by what they are for. */
export type RestartTaskRef = { kind: 'restart-running' | 'switchover-to'; instanceId: string };

export interface RestartInput {
  instances: OpInstance[];
  /** Instance ids in the order they restart (restartOrder at the start of the operation). */
  order: string[];
  task: (ref: RestartTaskRef) => TaskView | null;
}

/** Per shard, in shard order: its replicas, then its primary. */
export function restartOrder(instances: readonly Pick<OpInstance, 'id' | 'shard' | 'role'>[]): string[] {
  const shards = [...new Set(instances.map((i) => i.shard))].sort((a, b) => a - b);
  return shards.flatMap((s) => {
    const members = instances.filter((i) => i.shard === s).sort((a, b) => a.id.localeCompare(b.id));
    return [...members.filter((i) => i.role !== 'primary'), ...members.filter((i) => i.role === 'primary')].map((i) => i.id);
  });
}

/** A report this long after a restart task succeeded shows the new process (agents sample every second). */
export const FRESH_AFTER_MS = 1500;

const wait = (detail: string, fraction: number): StepPlan['verdict'] => ({ kind: 'wait', detail, fraction });

/**
 * A node holding copies of the cluster went down: the roll stops there (the copies restarted so far stay restarted).
 * Waiting would hold healing back for good (a roll lets it only promote), and healing rebuilds those copies with fresh
 * engines once the operation ended.
 */
const nodeLostDuringRestart = (instances: OpInstance[]) => nodeDownFailure(instances, 'during the rolling restart',
  'Healing rebuilds those copies elsewhere with fresh engines; ask for the restart again once the cluster is ready to restart the others.');

export function planRestartStep(input: RestartInput): StepPlan & { actions: OperationAction[] } {
  const { instances, order } = input;
  const lost = nodeLostDuringRestart(instances);
  if (lost) return { actions: [], verdict: lost };
  const healthy = healthyIds(instances);
  const total = order.length || 1;
  let done = 0;
  for (const id of order) {
    const i = instances.find((m) => m.id === id);
    if (!i) { done++; continue; }
    const fraction = done / total;
    const restarted = input.task({ kind: 'restart-running', instanceId: id });
    if (restarted?.state === 'succeeded') {
      // Healthy in a report its node sent well after the restart (an earlier one may still show the old process).
      const fresh = i.nodeReportedAt !== null && i.nodeReportedAt >= restarted.updatedAt + FRESH_AFTER_MS;
      if (fresh && healthy.has(id)) { done++; continue; }
      return { actions: [], verdict: wait(`${i.label} restarted; waiting for it to rejoin${i.role === 'replica' ? ' and sync from its primary' : ''} (${done + 1} of ${order.length})`, fraction) };
    }
    const sick = instances.filter((m) => !healthy.has(m.id));
    if (sick.length && !(restarted && sick.every((m) => m.id === id))) {
      return { actions: [], verdict: wait(`paused: ${sick.map((m) => `${m.label} (${shardLabel(m.shard)})`).join(', ')} not healthy; the restart goes on once the cluster is healthy again`, fraction) };
    }
    // The role it has now (a switchover makes a primary a replica before it is recorded).
    const primaryNow = (i.obs?.view?.role ?? i.role) === 'primary';
    const replicas = instances.filter((m) => m.shard === i.shard && m.id !== i.id);
    if (primaryNow && replicas.length) {
      const primaryId = primaryNodeId({ engineId: i.engineId, obs: i.obs });
      const inSync = replicas.filter((r) => isInSyncReplica(r.obs, primaryId));
      const target = inSync.find((r) => input.task({ kind: 'switchover-to', instanceId: r.id })) ?? inSync[0];
      if (!target) return { actions: [], verdict: wait(`${shardLabel(i.shard)}: waiting for an in-sync replica to hand the primary role to`, fraction) };
      return {
        actions: [{ kind: 'switchover-to', shard: i.shard, instanceId: target.id }],
        verdict: wait(`${shardLabel(i.shard)}: handing the primary role from ${i.label} to ${target.label} (no acknowledged write lost) before restarting it`, fraction),
      };
    }
    return {
      actions: [{ kind: 'restart-running', shard: i.shard, instanceId: id }],
      verdict: wait(`restarting ${i.label} on ${i.nodeName}, ${shardLabel(i.shard)} (${done + 1} of ${order.length})`, fraction),
    };
  }
  return { actions: [], verdict: { kind: 'done', detail: `${order.length} instance(s) restarted` } };
}
