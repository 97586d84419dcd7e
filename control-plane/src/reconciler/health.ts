import type { Condition } from '@strata/api';
import { describeHealAction, type HealPlan } from '@strata/engine';
import { healthyMembersOf, type ClusterContext } from './cluster-context';
import { condition } from './condition';
import { shardLabel, shardNames } from '@strata/api';

/**
 * Phase and conditions of a provisioned cluster from what agents observe,
 * with what Strata is doing about anything wrong (the heal plan).
 */
export function evaluateHealth(ctx: ClusterContext, plan?: HealPlan): { phase: 'ready' | 'degraded' | 'unknown'; conditions: Condition[] } {
  // Just after a control-plane start every agent reports within a second:
  // until then the stored status stands. A node still silent after that
  // (it died while the control plane was away) is silent like any other,
  // and the status says so instead of keeping what was true before.
  if (ctx.instances.some((i) => ctx.awaitingFirstReport(i.nodeId))) return { phase: 'unknown', conditions: [] };
  const name = (i: (typeof ctx.instances)[number]) => `${ctx.nodes.get(i.nodeId)?.name ?? i.nodeId}:${i.port}`;
  const member = (i: (typeof ctx.instances)[number]) => `${shardLabel(i.shardIndex)}'s ${i.role} on ${name(i)}`;
  // What a silent node last said does not count: its instances are unknown.
  const unknown = ctx.instances.filter((i) => !ctx.observe(i.id));
  const silentNodes = [...new Set(unknown.map((i) => i.nodeId))].map((id) => ctx.nodes.get(id)?.name ?? id);
  const down = ctx.instances.filter((i) => ctx.observe(i.id) && ctx.observe(i.id)!.state !== 'running');
  const healthy = healthyMembersOf(ctx);
  const unformed = ctx.instances.filter((i) => !healthy.has(i.id));
  const shardsWithoutPrimary = ctx.shards.length
    ? ctx.shards.filter((s) => !ctx.instances.some((i) => i.shardIndex === s.shardIndex && i.role === 'primary' && ctx.observe(i.id)?.state === 'running'))
    : [];
  const running = ctx.instances.length - unknown.length - down.length;
  const conditions = [
    unknown.length
      ? condition('NodesReporting', 'false', 'NodeSilent', `not reporting: ${silentNodes.join(', ')}; ${unknown.length} instance(s) unknown (${unknown.map(name).join(', ')})`)
      : condition('NodesReporting', 'true', 'AllReporting', 'every node holding an instance reports'),
    down.length
      ? condition('InstancesRunning', 'false', 'InstanceDown', `not running: ${down.map((i) => `${shardLabel(i.shardIndex)}'s ${i.role} on ${name(i)} (${ctx.observe(i.id)?.state ?? 'unknown'})`).join(', ')}`)
      : condition('InstancesRunning', unknown.length ? 'unknown' : 'true', unknown.length ? 'SomeUnknown' : 'AllRunning', `${running} of ${ctx.instances.length} instances running${unknown.length ? `; ${unknown.length} unknown` : ''}`),
    unformed.length
      ? condition('ClusterHealthy', 'false', shardsWithoutPrimary.length ? 'ShardWithoutPrimary' : 'MembersDisagree',
        shardsWithoutPrimary.length
          ? `${shardNames(shardsWithoutPrimary.map((s) => s.shardIndex))} has no running primary: writes to it fail until a replica takes over; not yet healthy: ${unformed.map(member).join(', ')}`
          : `not yet a healthy member (starting, joining or catching up): ${unformed.map(member).join(', ')}`)
      : condition('ClusterHealthy', 'true', 'AllAgree', 'cluster_state ok on every node; replicas in sync'),
  ];
  if (ctx.endpointServed !== null) {
    conditions.push(ctx.endpointServed
      ? condition('EndpointServed', 'true', 'Served', 'an agent serves the stable endpoint')
      : condition('EndpointServed', 'false', 'NotServed', 'no reporting agent serves the stable endpoint yet; clients using the connection URI cannot connect'));
  }
  const doing = plan ? [...plan.actions.filter((a) => a.kind !== 'record-role').map(describeHealAction), ...plan.waiting] : [];
  if (doing.length) conditions.push(condition('Healing', 'true', 'Acting', doing.join('; ')));
  return { phase: unknown.length || down.length || unformed.length || ctx.endpointServed === false ? 'degraded' : 'ready', conditions };
}
