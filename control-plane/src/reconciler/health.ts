import type { Condition } from '@strata/api';
import { describeHealAction, type HealPlan } from '@strata/engine';
import { isFormedMember, type ClusterContext } from './cluster-context';
import { condition } from './condition';

/**
 * Phase and conditions of a provisioned cluster from what agents observe,
 * with what Strata is doing about anything wrong (the heal plan).
 */
export function evaluateHealth(ctx: ClusterContext, plan?: HealPlan): { phase: 'ready' | 'degraded' | 'unknown'; conditions: Condition[] } {
  const unreported = ctx.instances.filter((i) => ctx.nodeReportedAt(i.nodeId) === null);
  if (unreported.length) return { phase: 'unknown', conditions: [] };
  const name = (i: (typeof ctx.instances)[number]) => `${ctx.nodes.get(i.nodeId)?.name ?? i.nodeId}:${i.port}`;
  const down = ctx.instances.filter((i) => ctx.observe(i.id)?.state !== 'running');
  const unformed = ctx.instances.filter((i) => !isFormedMember(ctx, i));
  const shardsWithoutPrimary = ctx.shards.length
    ? ctx.shards.filter((s) => !ctx.instances.some((i) => i.shardIndex === s.shardIndex && i.role === 'primary' && ctx.observe(i.id)?.state === 'running'))
    : [];
  const conditions = [
    down.length
      ? condition('InstancesRunning', 'false', 'InstanceDown', `not running: ${down.map((i) => `${name(i)} (${ctx.observe(i.id)?.state ?? 'unknown'}, ${i.role})`).join(', ')}`)
      : condition('InstancesRunning', 'true', 'AllRunning', `${ctx.instances.length} instances running`),
    unformed.length
      ? condition('ClusterHealthy', 'false', shardsWithoutPrimary.length ? 'ShardWithoutPrimary' : 'MembersDisagree',
        shardsWithoutPrimary.length
          ? `shard ${shardsWithoutPrimary.map((s) => s.shardIndex).join(', ')} has no running primary; not healthy: ${unformed.map(name).join(', ')}`
          : `not a healthy member yet: ${unformed.map(name).join(', ')}`)
      : condition('ClusterHealthy', 'true', 'AllAgree', 'cluster_state ok on every node; replicas in sync'),
  ];
  const doing = plan ? [...plan.actions.filter((a) => a.kind !== 'record-role').map(describeHealAction), ...plan.waiting] : [];
  if (doing.length) conditions.push(condition('Healing', 'true', 'Acting', doing.join('; ')));
  return { phase: down.length || unformed.length ? 'degraded' : 'ready', conditions };
}
