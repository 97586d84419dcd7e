import type { ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';

/**
 * Records the Redis node id (and config epoch) each running instance reports,
 * keeping its stored role. An instance's id must be known before it can die:
 * in-sync and promotable replicas are matched to their primary by it, and a
 * removed instance is forgotten by it.
 */
export async function rememberEngineIds(ctx: ClusterContext, rows: InstanceRow[]): Promise<void> {
  for (const i of rows) {
    const v = ctx.observe(i.id)?.cluster;
    if (v && v.myId !== i.engineId) {
      await ctx.deps.clusters.recordObservedInstance(i.id, { role: i.role, engineId: v.myId, configEpoch: v.configEpoch });
      i.engineId = v.myId;
      i.configEpoch = v.configEpoch;
    }
  }
}
