/** Wires the benchmark store, coordinator, service and routes (called from main.ts). */
import type pg from 'pg';
import type { Logger } from 'pino';
import { requireNode } from '../auth/auth.middleware';
import { BenchmarkStore } from '../stores/benchmark.store';
import { EventStore } from '../stores/event.store';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { BenchmarkCoordinator } from './benchmark-coordinator';
import { BenchmarkService } from './benchmark.service';
import { agentBenchmarkRoutes, benchmarkRoutes } from './benchmark.routes';
import type { EventStreams } from '../http/event-streams';

export function createBenchmarkModule(d: {
  pool: pg.Pool;
  log: Logger;
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  notifyNode: (nodeId: string) => void;
  eventStreams: EventStreams;
}) {
  const benchmarks = new BenchmarkStore(d.pool);
  const events = new EventStore(d.pool);
  const coordinator = new BenchmarkCoordinator({
    store: benchmarks,
    log: d.log.child({ module: 'benchmarks' }),
    environment: async (clusterId) => {
      const c = await d.clusters.get(clusterId);
      return { engineVersion: c?.spec.engineVersion ?? 'unknown', shards: c?.spec.shards ?? 0, replicasPerShard: c?.spec.replicasPerShard ?? 0, durability: c?.spec.durability ?? 'unknown' };
    },
    failoverAfter: async (clusterId, shard, sinceMs) => {
      const c = await d.clusters.get(clusterId);
      if (!c) return undefined;
      const { items } = await events.list(clusterId, c.organizationId, { limit: 20, types: ['failover'] });
      // The first failover after the kill (a later switch back to the preferred primary is another event).
      const e = items
        .filter((x) => x.type === 'failover' && x.shard === shard && Date.parse(x.promotedAt) >= sinceMs)
        .sort((a, b) => (a.type === 'failover' && b.type === 'failover' ? Date.parse(a.promotedAt) - Date.parse(b.promotedAt) : 0))[0];
      return e?.type === 'failover' ? { promotedAtMs: Date.parse(e.promotedAt), cause: e.cause, writeUnavailableMs: e.writeUnavailableMs } : undefined;
    },
  });
  const benchmarkService = new BenchmarkService({ clusters: d.clusters, nodes: d.nodes, tasks: d.tasks, benchmarks, observed: d.observed, coordinator, notifyNode: d.notifyNode });
  return {
    benchmarks,
    coordinator,
    service: benchmarkService,
    app: {
      router: benchmarkRoutes({ benchmarks, benchmarkService, coordinator, clusters: d.clusters, eventStreams: d.eventStreams }),
      agentRouter: agentBenchmarkRoutes({ coordinator, benchmarks }),
    },
    /** Runs a previous process left active cannot resume: fail them, then watch workers. */
    async start(): Promise<void> {
      const n = await benchmarks.failAbandoned('the control plane restarted during the run');
      if (n) d.log.warn({ count: n }, 'failed benchmarks abandoned by a restart');
      coordinator.start();
    },
    stop(): void {
      coordinator.stop();
    },
  };
}
