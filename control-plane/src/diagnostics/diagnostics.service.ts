/**
 * Diagnostics of a cluster. The control plane never talks to an engine:
 * like backups and benchmarks, it asks the agents that run the instances
 * (tasks outside any operation, `slowlog` and `key-scan`) and reads their
 * results. The slow log is read on request (one task per node, waited for);
 * a key scan is a stored job with one task per shard, on the shard's
 * primary (its LFU counters are the ones clients move), settled from the
 * tasks when read or when one of them ends. The heat view comes from the
 * metrics hot window.
 */
import { randomUUID } from 'node:crypto';
import {
  KEY_SCAN_LIMITS, SLOWLOG_LIMITS, hotKeysAvailability,
  type Heat, type KeyScan, type KeyScanRequest, type KeyScanShard, type SlowLog, type SlowLogEntry, type SlowLogReset, type SlowLogSource, type TaskResult,
} from '@strata/api';
import { mergeSlowLogs } from '@strata/engine';
import { AppError, conflict, notFound } from '../errors';
import type { ClusterRow, ClusterStore, InstanceRow } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskRow, TaskStore } from '../stores/task.store';
import type { ObservedState } from '../observed/observed-state';
import { taskKey } from '../reconciler/dedupe-keys';
import type { KeyScanRow, KeyScanShardRow, KeyScanStore } from './key-scan.store';
import { heatOf, type ShardLoad } from './heat';

export interface DiagnosticsDeps {
  clusters: ClusterStore;
  nodes: NodeStore;
  tasks: TaskStore;
  observed: ObservedState;
  scans: KeyScanStore;
  notifyNode: (nodeId: string) => void;
  shardLoad: (clusterId: string, windowSec: number) => { at: number | null; shards: ShardLoad[] };
  /** Longest wait for the agents' slow logs. */
  slowLogTimeoutMs?: number;
  pollMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type SlowLogResult = Extract<TaskResult, { kind: 'slowlog' }>;

export class DiagnosticsService {
  constructor(private readonly d: DiagnosticsDeps) {}

  private async cluster(organizationId: string, clusterId: string): Promise<ClusterRow> {
    const c = await this.d.clusters.get(clusterId, organizationId);
    if (!c) throw notFound('Cluster');
    return c;
  }

  private async addresses(): Promise<Map<string, { address: string; name: string }>> {
    return new Map((await this.d.nodes.list()).map((n) => [n.id, { address: n.address, name: n.name }]));
  }

  // ---- Slow log ----

  async slowLog(organizationId: string, clusterId: string, limit: number = SLOWLOG_LIMITS.perInstance.default): Promise<SlowLog> {
    const { sources, results, instances, nodes } = await this.askSlowLogs(organizationId, clusterId, { limit, reset: false });
    const lists = results.map(({ instanceId, entries }) => {
      const i = instances.find((x) => x.id === instanceId)!;
      const role = results.find((r) => r.instanceId === instanceId)?.role ?? null;
      return entries.map((e): SlowLogEntry => ({
        ...e, instanceId, shard: i.shardIndex, role, address: `${nodes.get(i.nodeId)?.address ?? '?'}:${i.port}`, nodeName: nodes.get(i.nodeId)?.name ?? '?',
      }));
    });
    return { clusterId, readAt: new Date().toISOString(), entries: mergeSlowLogs(lists), sources };
  }

  async resetSlowLog(organizationId: string, clusterId: string): Promise<SlowLogReset> {
    const { sources } = await this.askSlowLogs(organizationId, clusterId, { limit: 1, reset: true });
    return { reset: sources.filter((s) => s.ok).length, sources };
  }

  /** One task per node holding instances of the cluster, waited for; instances whose node is silent or late are named as such. */
  private async askSlowLogs(organizationId: string, clusterId: string, o: { limit: number; reset: boolean }) {
    await this.cluster(organizationId, clusterId);
    const [instances, nodes] = await Promise.all([this.d.clusters.instances(clusterId), this.addresses()]);
    const requestId = randomUUID();
    const byNode = new Map<string, InstanceRow[]>();
    for (const i of instances) byNode.set(i.nodeId, [...(byNode.get(i.nodeId) ?? []), i]);
    const keys: string[] = [];
    const failed = new Map<string, string>();
    for (const [nodeId, list] of byNode) {
      if (this.d.observed.isSilent(nodeId)) {
        for (const i of list) failed.set(i.id, 'its node is not reporting');
        continue;
      }
      const key = taskKey({ kind: 'slowlog', requestId, nodeId });
      await this.d.tasks.enqueue({
        nodeId, clusterId, operationId: null, dedupeKey: key,
        request: { kind: 'slowlog', clusterId, instances: list.map((i) => ({ instanceId: i.id, port: i.port })), limit: o.limit, reset: o.reset },
      });
      this.d.notifyNode(nodeId);
      keys.push(key);
    }
    const deadline = Date.now() + (this.d.slowLogTimeoutMs ?? 8000);
    let tasks = new Map<string, TaskRow>();
    for (;;) {
      tasks = await this.d.tasks.latestOfKeys(clusterId, keys);
      const open = [...tasks.values()].some((t) => t.state === 'pending' || t.state === 'leased');
      if (!open || Date.now() >= deadline) break;
      await sleep(this.d.pollMs ?? 50);
    }
    const results: SlowLogResult['instances'] = [];
    for (const t of tasks.values()) {
      const ids = (t.payload as { instances: { instanceId: string }[] }).instances.map((i) => i.instanceId);
      if (t.state === 'succeeded' && t.result?.kind === 'slowlog') results.push(...t.result.instances);
      else for (const id of ids) failed.set(id, t.state === 'failed' ? `its agent could not read it: ${t.error ?? 'failed'}` : 'its agent did not answer in time');
    }
    const sources: SlowLogSource[] = instances.map((i) => {
      const r = results.find((x) => x.instanceId === i.id);
      const base = { instanceId: i.id, shard: i.shardIndex, address: `${nodes.get(i.nodeId)?.address ?? '?'}:${i.port}` };
      if (r) return { ...base, ok: r.ok, ...(r.error ? { error: r.error } : {}), length: r.length, slowerThanMicros: r.slowerThanMicros, maxLen: r.maxLen };
      return { ...base, ok: false, error: failed.get(i.id) ?? 'not read', length: null, slowerThanMicros: null, maxLen: null };
    });
    return { sources, results: results.filter((r) => r.ok), instances, nodes };
  }

  // ---- Key scans ----

  async startKeyScan(organizationId: string, clusterId: string, req: KeyScanRequest): Promise<KeyScan> {
    const cluster = await this.cluster(organizationId, clusterId);
    if (cluster.status.phase !== 'ready' && cluster.status.phase !== 'degraded') {
      throw conflict('invalid_state', `The cluster is ${cluster.status.phase}; a key scan needs a ready or degraded cluster.`);
    }
    const [instances, nodes] = await Promise.all([this.d.clusters.instances(clusterId), this.addresses()]);
    const shards: KeyScanShardRow[] = [];
    for (let shard = 0; shard < cluster.spec.shards; shard++) {
      const members = instances.filter((i) => i.shardIndex === shard);
      const roleNow = (i: InstanceRow) => this.d.observed.instance(i.id, i.nodeId)?.cluster?.role ?? i.role;
      const primary = members.find((i) => roleNow(i) === 'primary' && !this.d.observed.isSilent(i.nodeId));
      if (!primary) throw conflict('invalid_state', `Shard ${shard + 1} has no primary whose node reports right now; try again once the cluster is healthy.`);
      shards.push({ shard, instanceId: primary.id, nodeId: primary.nodeId, address: `${nodes.get(primary.nodeId)?.address ?? '?'}:${primary.port}` });
    }
    const hotKeys = hotKeysAvailability(cluster.spec.evictionPolicy);
    const params = {
      topN: req.topN ?? KEY_SCAN_LIMITS.topN.default,
      budgetMs: req.budgetMs ?? KEY_SCAN_LIMITS.budgetMs.default,
      batchSize: req.batchSize ?? KEY_SCAN_LIMITS.batchSize.default,
      pauseMs: req.pauseMs ?? KEY_SCAN_LIMITS.pauseMs.default,
      hotKeys: hotKeys.available,
    };
    const id = randomUUID();
    if (!(await this.d.scans.insert({ id, organizationId, clusterId, params, hotKeys, shards }))) {
      throw new AppError(409, 'scan_in_progress', 'Conflict', 'A key scan of this cluster is already running; wait for it to end.');
    }
    for (const s of shards) {
      const inst = instances.find((i) => i.id === s.instanceId)!;
      await this.d.tasks.enqueue({
        nodeId: s.nodeId, clusterId, operationId: null, dedupeKey: taskKey({ kind: 'key-scan', scanId: id, shard: s.shard }),
        request: { kind: 'key-scan', scanId: id, clusterId, instanceId: inst.id, port: inst.port, shard: s.shard, params },
      });
      this.d.notifyNode(s.nodeId);
    }
    return this.view((await this.d.scans.get(id, clusterId, organizationId))!);
  }

  async keyScan(organizationId: string, clusterId: string, scanId: string): Promise<KeyScan> {
    const row = await this.d.scans.get(scanId, clusterId, organizationId);
    if (!row) {
      await this.cluster(organizationId, clusterId);
      throw notFound('Key scan');
    }
    return this.view(row);
  }

  async keyScans(organizationId: string, clusterId: string): Promise<KeyScan[]> {
    await this.cluster(organizationId, clusterId);
    return Promise.all((await this.d.scans.listForCluster(clusterId, organizationId)).map((r) => this.view(r)));
  }

  /** A task of this cluster ended: running scans that are done are stored as such (their tasks are removed after a day). */
  async settle(clusterId: string): Promise<void> {
    for (const row of await this.d.scans.running(clusterId)) await this.view(row);
  }

  /** The scan as the API shows it; a running one whose shards all ended is finished here. */
  private async view(row: KeyScanRow): Promise<KeyScan> {
    let shards: KeyScanShard[];
    let status = row.status;
    let finishedAt = row.finishedAt;
    if (row.status !== 'running') {
      shards = row.shards.map((s) => ({ shard: s.shard, instanceId: s.instanceId, address: s.address, ...(s.final ?? { state: 'failed', progress: 0, detail: null, error: 'no outcome stored', result: null }) }));
    } else {
      const tasks = await this.d.tasks.latestOfKeys(row.clusterId, row.shards.map((s) => taskKey({ kind: 'key-scan', scanId: row.id, shard: s.shard })));
      shards = row.shards.map((s) => {
        const t = tasks.get(taskKey({ kind: 'key-scan', scanId: row.id, shard: s.shard }));
        const base = { shard: s.shard, instanceId: s.instanceId, address: s.address };
        if (!t) return { ...base, state: 'failed' as const, progress: 0, detail: null, error: 'its task is gone', result: null };
        if (t.state === 'succeeded' && t.result?.kind === 'key-scan') {
          const { kind: _k, ...result } = t.result;
          return { ...base, state: 'completed' as const, progress: 1, detail: `${result.keysScanned} keys scanned in ${(result.elapsedMs / 1000).toFixed(1)} s${result.complete ? '' : ' (stopped by the time budget)'}`, error: null, result };
        }
        if (t.state === 'failed') return { ...base, state: 'failed' as const, progress: t.progress ?? 0, detail: t.progressDetail, error: t.error ?? 'failed', result: null };
        return { ...base, state: t.state === 'leased' ? 'running' as const : 'pending' as const, progress: t.progress ?? 0, detail: t.progressDetail, error: null, result: null };
      });
      if (shards.every((s) => s.state === 'completed' || s.state === 'failed')) {
        status = shards.every((s) => s.state === 'completed') ? 'completed' : 'failed';
        const finals = row.shards.map((s, i) => ({ ...s, final: { state: shards[i]!.state, progress: shards[i]!.progress, detail: shards[i]!.detail, error: shards[i]!.error, result: shards[i]!.result } }));
        await this.d.scans.finish(row.id, status, finals);
        finishedAt = new Date();
      }
    }
    return {
      id: row.id, clusterId: row.clusterId, status, params: row.params, hotKeys: row.hotKeys, shards,
      createdAt: row.createdAt.toISOString(), finishedAt: finishedAt ? finishedAt.toISOString() : null,
    };
  }

  // ---- Heat ----

  async heat(organizationId: string, clusterId: string, windowSec = 10): Promise<Heat> {
    const cluster = await this.cluster(organizationId, clusterId);
    const load = this.d.shardLoad(clusterId, windowSec);
    const all: ShardLoad[] = Array.from({ length: cluster.spec.shards }, (_, shard) =>
      load.shards.find((s) => s.shard === shard) ?? { shard, ops: null, memoryUsed: null, memoryMax: null, keys: null, latencyP99: null });
    return { clusterId, windowSeconds: windowSec, at: load.at, ...heatOf(all) };
  }
}
