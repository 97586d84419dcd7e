import type { Condition } from '@strata/api';
import { isFormedMember, type ClusterContext } from './cluster-context';
import { condition } from './condition';

/** Phase and conditions of a provisioned cluster from what agents observe. */
export function evaluateHealth(ctx: ClusterContext): { phase: 'ready' | 'degraded' | 'unknown'; conditions: Condition[] } {
  const unreported = ctx.instances.filter((i) => ctx.nodeReportedAt(i.nodeId) === null);
  if (unreported.length) return { phase: 'unknown', conditions: [] };
  const down = ctx.instances.filter((i) => ctx.observe(i.id)?.state !== 'running');
  const unformed = ctx.instances.filter((i) => !isFormedMember(ctx, i));
  const name = (i: (typeof ctx.instances)[number]) => `${ctx.nodes.get(i.nodeId)?.name ?? i.nodeId}:${i.port}`;
  const conditions = [
    down.length
      ? condition('InstancesRunning', 'false', 'InstanceDown', `not running: ${down.map(name).join(', ')}`)
      : condition('InstancesRunning', 'true', 'AllRunning', `${ctx.instances.length} instances running`),
    unformed.length
      ? condition('ClusterHealthy', 'false', 'MembersDisagree', `not a healthy member as planned: ${unformed.map(name).join(', ')}`)
      : condition('ClusterHealthy', 'true', 'AllAgree', 'cluster_state ok on every node; replicas in sync'),
  ];
  return { phase: down.length || unformed.length ? 'degraded' : 'ready', conditions };
}
