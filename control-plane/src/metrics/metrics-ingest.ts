/**
 * Ingestion of agent batches: every sample goes into the hot window, the
 * Prometheus totals and the minute rollups at once, and is queued for
 * PostgreSQL; a writer flushes the queues every second in one statement per
 * table. Nothing here waits for the database on the request path.
 */
import type { Logger } from 'pino';
import type { AgentMetricsBatch } from '@strata/api';
import { F, INSTANCE_SLOT_WIDTH, NODE_FIELDS, PRIMARY_SLOT, instanceValues, nodeValues } from './fields';
import { HotWindow } from './hot-window';
import type { InstanceDirectory } from './instance-directory';
import type { InstanceRow, MetricsStore, NodeRow } from './metrics.store';
import { MinuteAccumulator, NodeMinuteAccumulator } from './rollup';
import { PromCounters } from './prom-counters';

/** Rows waiting for PostgreSQL beyond this are dropped (oldest first) and counted. */
const MAX_QUEUED_ROWS = 500_000;

export interface IngestStats {
  batches: number;
  samples: number;
  rejected: number;
  rowsWritten: { instance1s: number; instance1m: number; node1s: number; node1m: number };
  rowsDropped: number;
  queued: number;
  flushes: number;
  lastFlushMs: number;
  flushFailures: number;
}

export class MetricsIngest {
  readonly hot: HotWindow;
  readonly prom = new PromCounters();
  private readonly rollups = new Map<string, MinuteAccumulator>();
  private readonly nodeRollups = new Map<string, NodeMinuteAccumulator>();
  private queue1s: InstanceRow[] = [];
  private queue1m: InstanceRow[] = [];
  private nodeQueue1s: NodeRow[] = [];
  private nodeQueue1m: NodeRow[] = [];
  private flushing = false;
  private timers: NodeJS.Timeout[] = [];
  readonly stats: IngestStats = {
    batches: 0, samples: 0, rejected: 0, rowsWritten: { instance1s: 0, instance1m: 0, node1s: 0, node1m: 0 }, rowsDropped: 0, queued: 0, flushes: 0, lastFlushMs: 0, flushFailures: 0,
  };

  constructor(
    private readonly d: { directory: InstanceDirectory; store: MetricsStore; log: Logger; hotSeconds: number; now?: () => number },
  ) {
    this.hot = new HotWindow(d.hotSeconds, INSTANCE_SLOT_WIDTH, NODE_FIELDS.length);
  }

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  async start(): Promise<void> {
    await this.d.directory.reload();
    await this.d.store.maintainPartitions(Math.floor(this.now() / 1000));
    this.timers.push(setInterval(() => void this.flush(), 1000));
    this.timers.push(setInterval(() => void this.closeIdleMinutes(), 10_000));
    this.timers.push(setInterval(() => {
      const nowSec = Math.floor(this.now() / 1000);
      this.hot.prune(nowSec);
      this.prom.forget(this.now() - 10 * 60_000);
      this.d.store.maintainPartitions(nowSec).catch((err) => this.d.log.error({ err }, 'metrics partition maintenance failed'));
    }, 5 * 60_000));
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.closeIdleMinutes(true);
    await this.flush();
  }

  /** Takes one batch from node `nodeId`. Samples for instances not placed on that node are rejected. */
  async ingest(nodeId: string, batch: AgentMetricsBatch): Promise<{ accepted: number; rejected: number }> {
    const nowMs = this.now();
    const nowSec = Math.floor(nowMs / 1000);
    const oldest = this.d.store.acceptFrom('1s', nowSec);
    let accepted = 0;
    let rejected = 0;
    this.stats.batches++;

    for (const h of batch.host) {
      const sec = Math.floor(h.ts / 1000);
      if (sec > nowSec + 5 || sec < oldest) continue;
      const values = nodeValues(h);
      this.hot.node(nodeId).row(sec)?.set(values);
      this.prom.addNode(nodeId, h, nowMs);
      this.nodeQueue1s.push({ sec, nodeId, values });
      let acc = this.nodeRollups.get(nodeId);
      if (!acc) this.nodeRollups.set(nodeId, (acc = new NodeMinuteAccumulator()));
      const done = acc.add(sec, values);
      if (done) this.nodeQueue1m.push({ sec: done.minute, nodeId, values: done.values });
    }

    for (const s of batch.instances) {
      const info = await this.d.directory.lookup(s.instanceId);
      const sec = Math.floor(s.ts / 1000);
      if (!info || info.nodeId !== nodeId || info.clusterId !== s.clusterId || sec > nowSec + 5 || sec < oldest) {
        rejected++;
        continue;
      }
      accepted++;
      const values = instanceValues(s);
      const isPrimary = s.role === 'primary';
      const row = this.hot.instance(s.instanceId).row(sec);
      if (row) {
        const lag = row[F.repl_lag]!;
        row.set(values);
        row[F.repl_lag] = isPrimary ? Number.NaN : lag;
        row[PRIMARY_SLOT] = isPrimary ? 1 : 0;
      }
      this.prom.addInstance(s, nowMs);
      this.queue1s.push({ sec, instanceId: s.instanceId, clusterId: info.clusterId, shard: info.shard, isPrimary, values: row ?? values });
      let acc = this.rollups.get(s.instanceId);
      if (!acc) this.rollups.set(s.instanceId, (acc = new MinuteAccumulator()));
      const done = acc.add(sec, values, s.latency, isPrimary);
      if (done) this.queue1m.push({ sec: done.minute, instanceId: s.instanceId, clusterId: info.clusterId, shard: info.shard, isPrimary: done.isPrimary, values: done.values });
      for (const r of s.replicas) {
        // Replicas connect from whatever source address the kernel picks (127.0.0.1 on loopback),
        // so match the announced port within the shard when the address does not name an instance.
        let replica = this.d.directory.atAddress(`${r.host}:${r.port}`);
        if (!replica || replica.clusterId !== info.clusterId) {
          const candidates = this.d.directory.ofCluster(info.clusterId).filter((i) => i.shard === info.shard && i.port === r.port && i.id !== info.id);
          replica = candidates.length === 1 ? candidates[0] : undefined;
        }
        if (!replica) continue;
        const rrow = this.hot.instance(replica.id).row(sec);
        if (rrow) rrow[F.repl_lag] = r.lagBytes;
        this.prom.setLag(replica.id, r.lagBytes);
        this.rollups.get(replica.id)?.addLag(sec, r.lagBytes);
      }
    }
    this.stats.samples += accepted;
    this.stats.rejected += rejected;
    this.trimQueues();
    return { accepted, rejected };
  }

  private trimQueues(): void {
    const total = this.queue1s.length + this.queue1m.length + this.nodeQueue1s.length + this.nodeQueue1m.length;
    this.stats.queued = total;
    if (total <= MAX_QUEUED_ROWS) return;
    const drop = total - MAX_QUEUED_ROWS;
    this.queue1s.splice(0, Math.min(drop, this.queue1s.length));
    this.stats.rowsDropped += drop;
  }

  /** Writes everything queued in one statement (more only past 5,000 instance rows). Overlapping calls do nothing. */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    const started = Date.now();
    const q1s = this.queue1s, q1m = this.queue1m, n1s = this.nodeQueue1s, n1m = this.nodeQueue1m;
    this.queue1s = [];
    this.queue1m = [];
    this.nodeQueue1s = [];
    this.nodeQueue1m = [];
    try {
      const w = this.stats.rowsWritten;
      // Chunks keep each statement's parameters a reasonable size; a quiet second is one statement.
      await this.d.store.insert({ instance1s: q1s.slice(0, 5000), instance1m: q1m, node1s: n1s, node1m: n1m });
      for (let i = 5000; i < q1s.length; i += 5000) await this.d.store.insert({ instance1s: q1s.slice(i, i + 5000) });
      w.instance1s += q1s.length;
      w.instance1m += q1m.length;
      w.node1s += n1s.length;
      w.node1m += n1m.length;
      this.stats.flushes++;
    } catch (err) {
      this.stats.flushFailures++;
      this.stats.rowsDropped += q1s.length + q1m.length + n1s.length + n1m.length;
      this.d.log.error({ err: (err as Error).message }, 'writing metrics to PostgreSQL failed; rows dropped');
    } finally {
      this.stats.lastFlushMs = Date.now() - started;
      this.stats.queued = this.queue1s.length + this.queue1m.length + this.nodeQueue1s.length + this.nodeQueue1m.length;
      this.flushing = false;
    }
  }

  /** Closes minutes of instances and nodes that stopped reporting (or all, at shutdown). */
  closeIdleMinutes(all = false): void {
    // A minute closes 5 s after it ends, so a late sample of an instance still lands in it.
    const closeBefore = Math.floor(this.now() / 1000) - 65;
    for (const [id, acc] of this.rollups) {
      if (!all && acc.openMinute() > closeBefore) continue;
      const info = this.d.directory.get(id);
      const row = acc.flush();
      if (row && info) this.queue1m.push({ sec: row.minute, instanceId: id, clusterId: info.clusterId, shard: info.shard, isPrimary: row.isPrimary, values: row.values });
      this.rollups.delete(id);
    }
    for (const [id, acc] of this.nodeRollups) {
      if (!all && acc.openMinute() > closeBefore) continue;
      const row = acc.flush();
      if (row) this.nodeQueue1m.push({ sec: row.minute, nodeId: id, values: row.values });
      this.nodeRollups.delete(id);
    }
  }
}
