/** A restored cluster's create operation succeeded: `restore-completed` on its Activity, once. */
import { restoreCompletedEvent } from '../backups/backup-events';
import type { ClusterContext } from './cluster-context';
import { eventKey } from './dedupe-keys';

export async function recordRestore(ctx: ClusterContext): Promise<void> {
  const restore = await ctx.deps.restoreOf?.(ctx.cluster.id);
  if (!restore) return;
  await ctx.deps.events.record(
    ctx.cluster,
    restoreCompletedEvent(restore.backupId, restore.mode, restore.manifest, ctx.cluster.spec.shards),
    eventKey({ type: 'restore-completed', clusterId: ctx.cluster.id }),
  );
}
