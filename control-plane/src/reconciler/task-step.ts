import type { TaskRequest } from '@strata/api';
import type { ClusterContext } from './cluster-context';
import type { StepResult } from './step-runner';
import { taskKey, type TaskId } from './dedupe-keys';
import type { TaskRow } from '../stores/task.store';

/** The newest task of this identity in the context's owner (its operation, or healing). */
export const taskFor = (ctx: ClusterContext, id: TaskId): TaskRow | undefined => ctx.tasks.get(taskKey(id));

/**
 * Makes sure one idempotent task is (or was recently) handed to an agent.
 * The task belongs to the context's operation (or to healing). Returns a
 * failure once the task failed `maxTaskAttempts` times.
 */
export async function ensureTask(
  ctx: ClusterContext,
  t: { nodeId: string; id: TaskId; request: TaskRequest; settleMs: number },
): Promise<StepResult | null> {
  const latest = taskFor(ctx, t.id);
  const open = latest && (latest.state === 'pending' || latest.state === 'leased');
  if (open) return null;
  if (latest?.state === 'succeeded' && Date.now() - latest.updatedAt.getTime() < t.settleMs) return null;
  if (latest?.state === 'failed') {
    const failures = await ctx.deps.tasks.countFailures(ctx.cluster.id, ctx.operationId, taskKey(t.id));
    if (failures >= (ctx.deps.maxTaskAttempts ?? 3)) {
      return { kind: 'failed', code: 'task_failed', message: `${t.request.kind} failed ${failures} times: ${latest.error ?? 'no error reported'}` };
    }
  }
  await enqueueNow(ctx, t);
  return null;
}

/** Enqueues (unless an open task with this key exists) and wakes the agent's long-poll. */
export async function enqueueNow(ctx: ClusterContext, t: { nodeId: string; id: TaskId; request: TaskRequest }): Promise<boolean> {
  const inserted = await ctx.deps.tasks.enqueue({
    nodeId: t.nodeId, clusterId: ctx.cluster.id, operationId: ctx.operationId, request: t.request, dedupeKey: taskKey(t.id),
  });
  if (inserted) ctx.deps.notifyNode(t.nodeId);
  return inserted;
}
