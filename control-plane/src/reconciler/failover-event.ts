/**
 * Failover events: what Strata measured when a replica took over its
 * shard's slots (cause, detection, promotion, the window without writes).
 */
import type { EventInstanceRef, FailoverCause, TaskResult } from '@strata/api';
import { address, type ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';
import type { Db } from '../db/tx';
import { eventKey } from './dedupe-keys';
import { shardLabel } from '@strata/api';

/** How an instance appears in events: its address and node. */
export const eventRef = (ctx: ClusterContext, i: InstanceRow): EventInstanceRef => {
  const a = address(ctx, i);
  return { instanceId: i.id, address: `${a.host}:${a.port}`, nodeName: ctx.nodes.get(i.nodeId)?.name ?? i.nodeId };
};
const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/**
 * A replica was seen serving its shard's slots: record the failover with
 * what Strata measured. The cause comes from what was known of the old
 * primary; the times from its agent (exit seen) and the promotion task.
 */
export async function recordFailoverEvent(ctx: ClusterContext, promoted: InstanceRow, old: InstanceRow, configEpoch: number, db: Db | undefined): Promise<void> {
  const now = Date.now();
  const oldObs = ctx.observe(old.id);
  const tasks = [...ctx.tasks.values()].filter((t) => t.kind === 'failover' && (t.payload as { instanceId?: string }).instanceId === promoted.id);
  const task = tasks.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())[0];
  const mode = (task?.payload as { mode?: string } | undefined)?.mode;
  const result = task?.result as Extract<TaskResult, { kind: 'failover' }> | null | undefined;
  // Agents report every second: a node quiet for longer lost its primary with it, even before its
  // observations stop counting (STRATA_NODE_OFFLINE_AFTER_MS) and Redis failed over faster than that.
  // (Not heard from since this control plane started says nothing: it may just have started.)
  const oldNodeLastReport = ctx.nodeReportedAt(old.nodeId);
  const oldNodeQuiet = oldNodeLastReport !== null && now - oldNodeLastReport > NODE_QUIET_MS;
  const cause: FailoverCause = mode === 'switchover' && task && now - task.createdAt.getTime() < 60_000 ? 'switchover'
    : !oldObs || oldNodeQuiet ? 'node-lost'
      : oldObs.state === 'crashed' || oldObs.state === 'stopped' ? 'process-crash' : 'engine';
  // node-lost: from the old primary's node's last report (its silence began then; the primary died no earlier).
  const detectedAt = cause === 'switchover' ? task!.createdAt.getTime()
    : cause === 'node-lost' ? ctx.nodeReportedAt(old.nodeId)
      : oldObs?.crashedAt ? Date.parse(oldObs.crashedAt) : null;
  const promotedAt = result?.promotedAt && task && now - task.createdAt.getTime() < 60_000 ? Date.parse(result.promotedAt) : now;
  const clusterOkAt = Math.max(promotedAt, now);
  const from = eventRef(ctx, old);
  const to = eventRef(ctx, promoted);
  const window = detectedAt !== null ? Math.max(0, clusterOkAt - detectedAt) : null;
  await ctx.deps.events.record(ctx.cluster, {
    type: 'failover', shard: promoted.shardIndex, cause, oldPrimary: from, newPrimary: to,
    detectedAt: iso(detectedAt), promotedAt: iso(promotedAt)!, clusterOkAt: iso(clusterOkAt)!, writeUnavailableMs: window,
    message: `${shardLabel(promoted.shardIndex)}: ${to.address} (${to.nodeName}) took over from ${from.address} (${from.nodeName}) after ${causeText[cause]}${window !== null ? `; about ${window} ms without writes` : ''}.`,
    // A takeover always bumps the new primary's config epoch: one event per takeover, however many passes see it.
  }, eventKey({ type: 'failover', promotedInstanceId: promoted.id, configEpoch }), db);
  if (cause === 'switchover' && promoted.preferredRole === 'primary') {
    await ctx.deps.events.record(ctx.cluster, {
      type: 'primaries-rebalanced', moves: [{ shard: promoted.shardIndex, from, to }],
      message: `${shardLabel(promoted.shardIndex)}: primary moved back to ${to.address} on ${to.nodeName}, spreading primaries over nodes again.`,
    }, eventKey({ type: 'primaries-rebalanced', promotedInstanceId: promoted.id, configEpoch }), db);
  }
}

const NODE_QUIET_MS = 2500;

const causeText: Record<FailoverCause, string> = {
  'process-crash': 'its primary process exited',
  'node-lost': 'its node stopped reporting',
  switchover: 'a planned switchover',
  engine: 'Redis failed over on its own',
};

