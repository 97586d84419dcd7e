/**
 * Removes engines an agent runs that Strata no longer wants: instances of
 * deleted clusters, and instances replaced while their node was down (a
 * node that comes back must not serve stale data). An instance must be seen
 * orphaned on two sweeps in a row before it is removed.
 */
import type { Logger } from 'pino';
import type { ClusterStore } from '../stores/cluster.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import type { NodeStore } from '../stores/node.store';
import { taskKey } from '../reconciler/dedupe-keys';

export class OrphanSweeper {
  private timer?: NodeJS.Timeout;
  private suspects = new Set<string>();

  constructor(private readonly d: {
    clusters: ClusterStore; nodes: NodeStore; tasks: TaskStore; observed: ObservedState; log: Logger;
    notifyNode: (nodeId: string) => void; everyMs?: number;
  }) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.d.everyMs ?? 5000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<string[]> {
    try {
      const [nodes, wanted] = await Promise.all([this.d.nodes.list(), this.d.clusters.allInstances()]);
      const wantedOn = new Set(wanted.map((i) => `${i.nodeId}/${i.id}`));
      const seen = new Set<string>();
      const removed: string[] = [];
      for (const n of nodes) {
        if (this.d.observed.isSilent(n.id)) continue;
        for (const i of this.d.observed.nodeInstances(n.id)) {
          const key = `${n.id}/${i.instanceId}`;
          if (wantedOn.has(key)) continue;
          seen.add(key);
          if (!this.suspects.has(key)) continue;
          const inserted = await this.d.tasks.enqueue({
            nodeId: n.id, clusterId: i.clusterId, operationId: null, dedupeKey: taskKey({ kind: 'orphan', instanceId: i.instanceId }),
            request: { kind: 'remove-instance', instanceId: i.instanceId, clusterId: i.clusterId },
          });
          if (inserted) {
            this.d.log.warn({ nodeId: n.id, instanceId: i.instanceId, clusterId: i.clusterId }, 'removing an engine Strata no longer wants (deleted cluster or replaced while its node was down)');
            this.d.notifyNode(n.id);
            removed.push(i.instanceId);
          }
        }
      }
      this.suspects = seen;
      return removed;
    } catch (err) {
      this.d.log.warn({ err }, 'orphan sweep failed');
      return [];
    }
  }
}
