import type { ClusterContext } from './cluster-context';
import type { StepResult } from './step-runner';

/**
 * Makes sure one idempotent task is (or was recently) handed to an agent.
 * Returns a failure once the task failed `maxTaskAttempts` times.
 */
export async function ensureTask(
  ctx: ClusterContext,
  t: { nodeId: string; kind: string; dedupeKey: string; payload: object; settleMs: number },
): Promise<StepResult | null> {
  const latest = ctx.tasks.get(t.dedupeKey);
  const open = latest && (latest.state === 'pending' || latest.state === 'leased');
  if (open) return null;
  if (latest?.state === 'succeeded' && Date.now() - latest.updatedAt.getTime() < t.settleMs) return null;
  if (latest?.state === 'failed') {
    const failures = await ctx.deps.tasks.countFailures(ctx.cluster.id, t.dedupeKey);
    if (failures >= (ctx.deps.maxTaskAttempts ?? 3)) {
      return { kind: 'failed', code: 'task_failed', message: `${t.kind} failed ${failures} times: ${latest.error ?? 'no error reported'}` };
    }
  }
  if (await ctx.deps.tasks.enqueue({ nodeId: t.nodeId, clusterId: ctx.cluster.id, kind: t.kind, payload: t.payload, dedupeKey: t.dedupeKey })) {
    ctx.deps.notifyNode(t.nodeId);
  }
  return null;
}
