/**
 * Starting and cancelling benchmarks: checks the cluster, picks the agents
 * that run workers, stores the run and enqueues one `benchmark` task per
 * agent. One active benchmark per cluster (409 otherwise).
 */
import { randomUUID } from 'node:crypto';
import type { BenchmarkRequest } from '@strata/api';
import { conflict, notFound, validationFailed } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { BenchmarkStore, BenchmarkRow } from '../stores/benchmark.store';
import type { ObservedState } from '../observed/observed-state';
import { BenchmarkRun, type RunFault } from './benchmark-run';
import type { BenchmarkCoordinator } from './benchmark-coordinator';
import { taskKey } from '../reconciler/dedupe-keys';
import { shardLabel, shardName } from '@strata/api';
import { benchKeyPrefix } from '@strata/bench';

export interface BenchmarkServiceDeps {
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  benchmarks: BenchmarkStore;
  observed: ObservedState;
  coordinator: BenchmarkCoordinator;
  notifyNode: (nodeId: string) => void;
}

export class BenchmarkService {
  constructor(private readonly d: BenchmarkServiceDeps) {}

  async start(organizationId: string, clusterId: string, req: BenchmarkRequest): Promise<BenchmarkRow> {
    const cluster = await this.d.clusters.get(clusterId, organizationId);
    if (!cluster) throw notFound('Cluster');
    if (!['ready', 'degraded'].includes(cluster.status.phase)) {
      throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; benchmarks run on a ready cluster.`);
    }
    const [instances, nodes] = await Promise.all([this.d.clusters.instances(clusterId), this.d.nodes.list()]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const seeds = instances.filter((i) => i.role === 'primary').map((i) => `${byId.get(i.nodeId)?.address}:${i.port}`);
    let hostIds: string[];
    if (req.nodeIds) {
      const unknown = req.nodeIds.filter((id) => !byId.has(id));
      if (unknown.length) throw validationFailed([{ field: 'nodeIds', message: `unknown node ${unknown[0]}` }]);
      const silent = req.nodeIds.filter((id) => this.d.observed.isSilent(id));
      if (silent.length) throw validationFailed([{ field: 'nodeIds', message: `node ${byId.get(silent[0]!)!.name} is offline` }]);
      hostIds = [...new Set(req.nodeIds)];
    } else {
      hostIds = [...new Set(instances.map((i) => i.nodeId))].filter((id) => !this.d.observed.isSilent(id)).sort();
    }
    if (hostIds.length === 0) throw conflict('invalid_state', 'No online node can run benchmark workers.');
    let fault: RunFault | undefined;
    if (req.fault) {
      if (cluster.spec.replicasPerShard === 0) {
        throw conflict('invalid_state', 'Failover under load needs replicas: with none, killing a primary takes its shard offline instead of failing over.');
      }
      if (req.fault.shard >= cluster.spec.shards) throw validationFailed([{ field: 'fault.shard', message: `fault.shard is the 0-based shard index: 0..${cluster.spec.shards - 1} for Shard 1..${cluster.spec.shards}` }]);
      const victim = instances.find((i) => i.shardIndex === req.fault!.shard && i.role === 'primary');
      if (!victim) throw conflict('invalid_state', `${shardLabel(req.fault.shard)} has no primary right now.`);
      if (!hostIds.includes(victim.nodeId)) {
        throw validationFailed([{ field: 'fault', message: `the primary of ${shardName(req.fault.shard)} is on node ${byId.get(victim.nodeId)?.name ?? victim.nodeId}, which must be among nodeIds: its agent kills it` }]);
      }
      // The victim's agent must keep a worker when fewer hosts than nodes are used.
      hostIds = [victim.nodeId, ...hostIds.filter((h) => h !== victim.nodeId)];
      fault = { kind: 'kill-primary', shard: req.fault.shard, instanceId: victim.id, nodeId: victim.nodeId, endpoint: `${byId.get(victim.nodeId)?.address}:${victim.port}` };
    }
    const threadsTotal = Math.max(req.workers ?? hostIds.length, 1);
    hostIds = hostIds.slice(0, Math.min(hostIds.length, threadsTotal, req.connections));
    const threads = split(threadsTotal, hostIds.length);
    const connections = split(req.connections, hostIds.length);
    if (connections.some((c, i) => c < threads[i]!)) throw validationFailed([{ field: 'workers', message: 'each worker thread needs at least one connection' }]);

    const id = randomUUID();
    const seed = req.seed ?? Math.floor(Math.random() * 2 ** 31);
    const stored: BenchmarkRequest = { ...req, seed };
    if (!(await this.d.benchmarks.insert({ id, clusterId, organizationId, workload: req.workload, request: stored }))) {
      throw conflict('conflict', 'A benchmark is already running on this cluster; cancel it or wait for it to finish.');
    }
    const hosts = hostIds.map((nodeId, index) => ({ index, nodeId, address: byId.get(nodeId)!.address, threads: threads[index]!, connections: connections[index]! }));
    const run = new BenchmarkRun(id, clusterId, stored, seed, hosts, Date.now(), fault);
    this.d.coordinator.add(run);
    let base = 0;
    for (const h of hosts) {
      await this.d.tasks.enqueue({
        nodeId: h.nodeId,
        clusterId,
        operationId: null,
        dedupeKey: taskKey({ kind: 'benchmark', benchmarkId: id, host: h.index }),
        request: {
          kind: 'benchmark',
          benchmarkId: id,
          clusterId,
          workload: req.workload,
          recordCount: req.recordCount,
          threads: h.threads,
          connections: h.connections,
          pipeline: req.pipeline,
          targetOpsPerSec: req.targetOpsPerSec === undefined ? undefined : (req.targetOpsPerSec * h.connections) / req.connections,
          seed,
          valueSize: req.valueSize,
          ratio: req.ratio,
          keyPattern: req.keyPattern,
          seeds,
          workerIndexBase: base,
          workerCountTotal: threadsTotal,
          keyPrefix: benchKeyPrefix(id),
        },
      });
      base += h.threads;
      this.d.notifyNode(h.nodeId);
    }
    return (await this.d.benchmarks.get(id))!;
  }

  async cancel(organizationId: string, id: string): Promise<BenchmarkRow> {
    const b = await this.d.benchmarks.get(id, organizationId);
    if (!b) throw notFound('Benchmark');
    if (!['pending', 'loading', 'warmup', 'running'].includes(b.state)) throw conflict('invalid_state', `The benchmark already ${b.state === 'succeeded' ? 'finished' : b.state}.`);
    if (!(await this.d.coordinator.cancel(id))) {
      await this.d.benchmarks.finish(id, { state: 'cancelled', error: { code: 'cancelled', message: 'cancelled by the user' } });
    }
    return (await this.d.benchmarks.get(id))!;
  }
}

/** n split over k parts as evenly as possible (first parts get the remainder). */
function split(n: number, k: number): number[] {
  return Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));
}
