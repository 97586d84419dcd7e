/**
 * Drives active benchmarks: answers agent workers' reports with their next
 * command (start together, load, run at a common start time, analytic
 * rounds), merges what they measured, streams progress, and stores the
 * result. A worker silent for too long is dropped and named in the verdict.
 */
import type { Logger } from 'pino';
import type { BenchmarkWorkerCommand, BenchmarkWorkerReport } from '@strata/api';
import { buildResult, writesOf, decodeHistogram, mergeHistograms, mergeOpCounts, summarize, type OpCounts } from '@strata/bench';
import type { BenchmarkStore, BenchmarkHistograms } from '../stores/benchmark.store';
import { BenchmarkRun, type HostState, type RunEvent } from './benchmark-run';
import { shardName } from '@strata/api';

export const WORKER_SILENCE_MS = 15_000;
const START_DELAY_MS = 1500;
const PERSIST_EVERY_MS = 1000;

export interface CoordinatorDeps {
  store: BenchmarkStore;
  log: Logger;
  environment: (clusterId: string) => Promise<{ engineVersion: string; shards: number; replicasPerShard: number; durability: string }>;
  /** The cluster's failover event for `shard` at or after `sinceMs` (the control plane's record of the self-healing). */
  failoverAfter?: (clusterId: string, shard: number, sinceMs: number) => Promise<{ promotedAtMs: number; cause: string; writeUnavailableMs: number | null } | undefined>;
  /** How long to wait for that event after the run (it is written by the reconciler, possibly later). */
  failoverWaitMs?: number;
  now?: () => number;
}

export class BenchmarkCoordinator {
  private readonly runs = new Map<string, BenchmarkRun>();
  private readonly persistedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly d: CoordinatorDeps) {
    this.now = d.now ?? Date.now;
  }

  start(): void {
    this.timer = setInterval(() => this.watchdog(), 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  add(run: BenchmarkRun): void {
    this.runs.set(run.id, run);
  }

  get(id: string): BenchmarkRun | undefined {
    return this.runs.get(id);
  }

  /** Subscribes to a live run's events; undefined when the run is not active here. */
  subscribe(id: string, l: (e: RunEvent) => void): (() => void) | undefined {
    const run = this.runs.get(id);
    if (!run || run.finished) return undefined;
    run.listeners.add(l);
    return () => run.listeners.delete(l);
  }

  async cancel(id: string): Promise<boolean> {
    const run = this.runs.get(id);
    if (!run || run.finished) return false;
    await this.finish(run, 'cancelled', { code: 'cancelled', message: 'cancelled by the user' });
    return true;
  }

  /** An agent worker's report; the answer is its next command. */
  async report(benchmarkId: string, nodeId: string, taskId: string, r: BenchmarkWorkerReport): Promise<BenchmarkWorkerCommand> {
    const run = this.runs.get(benchmarkId);
    if (!run) return { action: 'exit' };
    const h = run.hosts.find((x) => x.nodeId === nodeId);
    if (!h || h.lost || (h.taskId && h.taskId !== taskId)) return { action: 'exit' };
    if (run.finished) return r.kind === 'interval' || r.kind === 'load-progress' ? { action: 'stop' } : { action: 'exit' };
    h.taskId = taskId;
    h.lastSeen = this.now();
    switch (r.kind) {
      case 'failed':
        await this.finish(run, 'failed', { code: 'worker_failed', message: `worker on ${h.address}: ${r.message}` });
        return { action: 'exit' };
      case 'ready': {
        h.primaries = r.primaries;
        h.stepDone = Math.max(h.stepDone, 0);
        const ready = run.live().filter((x) => x.stepDone >= 0).length;
        if (run.current.kind === 'start') this.setState(run, 'pending', 0.01, `load generators ready on ${ready} of ${run.live().length} nodes`);
        break;
      }
      case 'load-progress':
        h.loadDone = Math.max(h.loadDone, r.done);
        // A progress report sent before 'loaded' can arrive after it: it must not take the run back to 'loading'.
        if (run.current.kind === 'load') this.loadProgress(run);
        break;
      case 'loaded':
        h.loaded = r;
        h.loadDone = r.inserted;
        h.stepDone = run.step;
        break;
      case 'interval':
        this.interval(run, h, r.t, r.ops);
        break;
      case 'done':
        h.done = {
          nodeId: h.nodeId, host: h.address, threads: h.threads, connections: h.connections, ops: r.ops, endpointCommands: r.endpointCommands,
          steadyStartMs: r.steadyStartMs, steadyEndMs: r.steadyEndMs, maxElu: r.maxElu, scheduleLagP99Us: r.scheduleLagP99Us, redirects: r.redirects, firstError: r.firstError, engine: r.engine, engineNote: r.engineNote,
          writeSlots: r.writeSlots,
        };
        if (r.keyCount !== undefined) h.keyCount = r.keyCount;
        if (r.serverCommands) h.serverCommands = r.serverCommands;
        if (r.serverLatency) h.serverLatency = r.serverLatency;
        h.stepDone = run.step;
        break;
      case 'analytic':
        h.analytic = r;
        h.stepDone = run.step;
        break;
      case 'fault':
        if (run.fault && h.nodeId === run.fault.nodeId) {
          run.fault.injectedAtMs = r.injectedAtMs;
          run.fault.injectError = r.error;
          this.d.log.warn({ benchmarkId: run.id, instanceId: run.fault.instanceId, error: r.error }, 'benchmark fault injected');
          run.emit({ state: run.state, progress: run.progress, detail: r.error ? `could not kill the primary of ${shardName(run.fault.shard)}: ${r.error}` : `killed the primary of ${shardName(run.fault.shard)} (${run.fault.endpoint})` });
        }
        break;
      case 'poll':
        break;
    }
    await this.advance(run);
    // Progress, intervals and fault reports are sent without waiting (the worker reads only 'stop' from their answer):
    // answering one with the next step would hand that step to a worker that never reads it, and it would wait forever.
    if (r.kind === 'load-progress' || r.kind === 'interval' || r.kind === 'fault') return { action: 'wait' };
    return run.commandFor(h);
  }

  /** Moves to the next step once every live host finished the current one. */
  private async advance(run: BenchmarkRun): Promise<void> {
    if (run.finished || !run.allDone()) return;
    const req = run.request;
    const step = run.current;
    if (step.kind === 'start') {
      if (req.load) {
        run.loadStartedAt = this.now();
        run.steps.push({ kind: 'load' });
        this.setState(run, 'loading', 0.02, `loading ${req.recordCount.toLocaleString('en')} records`);
        return;
      }
      return this.afterLoad(run);
    }
    if (step.kind === 'load') {
      run.loadSec = (this.now() - run.loadStartedAt) / 1000;
      return this.afterLoad(run);
    }
    if (step.kind === 'run') {
      // Not awaited: completing may wait for the failover event, longer than a worker's report may take. Workers poll meanwhile.
      if (!run.completing) {
        run.completing = true;
        void this.complete(run).catch((err) => this.finish(run, 'failed', { code: 'result_failed', message: (err as Error).message }));
      }
      return;
    }
    if (step.kind === 'analytic') {
      // Counted once: after the last round the step stays current while the result is built, and a
      // worker's poll meanwhile must not count that round again.
      if (run.analyticRuns.length > step.round) return;
      const parts = run.live().map((h) => h.analytic!);
      run.analyticRuns.push({
        records: parts.reduce((a, p) => a + p.records, 0),
        sentences: parts.reduce((a, p) => a + p.sentences, 0),
        ms: Math.max(...parts.map((p) => p.ms)),
        longestBatchMs: Math.max(...parts.map((p) => p.longestBatchMs)),
        errors: parts.reduce((a, p) => a + p.errors, 0),
        firstError: parts.find((p) => p.firstError)?.firstError,
      });
      if (run.analyticRuns.length >= req.runs) return this.complete(run);
      run.steps.push({ kind: 'analytic', round: run.analyticRuns.length });
      this.setState(run, 'running', 0.45 + (0.55 * run.analyticRuns.length) / req.runs, `analytic run ${run.analyticRuns.length + 1} of ${req.runs}`);
    }
  }

  private afterLoad(run: BenchmarkRun): void {
    const req = run.request;
    if (req.workload === 'analytic') {
      run.steps.push({ kind: 'analytic', round: 0 });
      this.setState(run, 'running', 0.45, `analytic run 1 of ${req.runs}`);
      return;
    }
    const startAtMs = this.now() + START_DELAY_MS;
    run.steps.push({ kind: 'run', startAtMs });
    this.setState(run, req.warmupSec > 0 ? 'warmup' : 'running', 0.45, req.warmupSec > 0 ? `warming up for ${req.warmupSec} s` : 'running');
  }

  private loadProgress(run: BenchmarkRun): void {
    const done = run.hosts.reduce((a, h) => a + h.loadDone, 0);
    this.setState(run, 'loading', 0.02 + 0.4 * Math.min(1, done / run.request.recordCount), `loaded ${done.toLocaleString('en')} of ${run.request.recordCount.toLocaleString('en')} records`);
  }

  private interval(run: BenchmarkRun, h: HostState, t: number, ops: OpCounts[]): void {
    let parts = run.intervals.get(t);
    if (!parts) {
      parts = new Map();
      run.intervals.set(t, parts);
    }
    parts.set(h.index, ops);
    if (parts.size < run.live().length) return;
    const merged = mergeOpCounts([...parts.values()]);
    const s = summarize(mergeHistograms(merged.map((o) => decodeHistogram(o.service))));
    const writeWorkload = run.request.workload !== 'ycsb-c' && run.request.workload !== 'analytic';
    const point = {
      t, ops: merged.reduce((a, o) => a + o.count, 0), p50: s.p50, p99: s.p99, errors: merged.reduce((a, o) => a + o.errors, 0),
      ...(writeWorkload ? { writes: writesOf(merged) } : {}),
    };
    run.points.push(point);
    const req = run.request;
    const total = req.warmupSec + (req.durationSec ?? 10);
    const elapsed = t + req.warmupSec;
    const frac = req.operationCount !== undefined ? Math.min(1, run.points.filter((p) => p.t > 0).reduce((a, p) => a + p.ops, 0) / req.operationCount) : Math.min(1, elapsed / total);
    const state = t <= 0 ? 'warmup' : 'running';
    this.setState(run, state, 0.45 + 0.53 * frac, state === 'warmup' ? `warming up (${elapsed} of ${req.warmupSec} s)` : `steady state: ${point.ops.toLocaleString('en')} ops in second ${t}`, point);
  }

  private setState(run: BenchmarkRun, state: BenchmarkRun['state'], progress: number, detail: string, point?: RunEvent['point']): void {
    run.state = state;
    run.progress = Math.max(run.progress, progress);
    run.detail = detail;
    run.emit({ state, progress: run.progress, detail, point });
    const last = this.persistedAt.get(run.id) ?? 0;
    if (this.now() - last >= PERSIST_EVERY_MS || !point) {
      this.persistedAt.set(run.id, this.now());
      void this.d.store.progress(run.id, state, run.progress, detail).catch((err) => this.d.log.warn({ err, benchmarkId: run.id }, 'could not store progress'));
    }
  }

  private async complete(run: BenchmarkRun): Promise<void> {
    const hosts = run.live().filter((h) => h.done).map((h) => h.done!);
    const first = run.live()[0];
    const env = await this.d.environment(run.clusterId).catch(() => ({ engineVersion: 'unknown', shards: 0, replicasPerShard: 0, durability: 'unknown' }));
    const intervals = [...run.intervals.entries()].map(([t, parts]) => ({ t, ops: mergeOpCounts([...parts.values()]) }));
    const loaded = run.request.load
      ? {
          inserted: run.hosts.reduce((a, h) => a + (h.loaded?.inserted ?? 0), 0),
          errors: run.hosts.reduce((a, h) => a + (h.loaded?.errors ?? 0), 0),
          sec: run.loadSec,
          firstError: run.hosts.find((h) => h.loaded?.firstError)?.loaded?.firstError,
        }
      : undefined;
    const fault = run.fault ? { ...run.fault, failover: await this.failoverOf(run) } : undefined;
    if (run.finished) return;
    const result = buildResult({
      request: run.request,
      seed: run.seed,
      hosts,
      intervals,
      keyCount: run.request.workload === 'analytic' ? undefined : first?.keyCount,
      serverCommands: first?.serverCommands,
      serverLatency: first?.serverLatency,
      fault,
      loaded,
      analyticRuns: run.analyticRuns.length ? run.analyticRuns : undefined,
      lostWorkers: run.lostMessages,
      environment: env,
    });
    const merged = mergeOpCounts(hosts.map((h) => h.ops));
    const histograms: BenchmarkHistograms = {
      ops: merged.map((o) => ({ op: o.op, service: o.service, response: o.response })),
      intervals: intervals.flatMap((i) => i.ops.map((o) => ({ t: i.t, op: o.op, service: o.service }))),
      startTimeMs: hosts.length ? Math.min(...hosts.map((h) => h.steadyStartMs)) : this.now(),
    };
    await this.finish(run, 'succeeded', undefined, result, histograms);
  }

  /** Waits (bounded) for the control plane's failover event of the killed primary's shard. */
  private async failoverOf(run: BenchmarkRun): Promise<{ promotedAtMs: number; cause: string; writeUnavailableMs: number | null } | undefined> {
    const f = run.fault;
    if (!f?.injectedAtMs || !this.d.failoverAfter) return undefined;
    const deadline = this.now() + (this.d.failoverWaitMs ?? 30_000);
    this.setState(run, 'running', 0.98, `waiting for the failover of ${shardName(f.shard)} to be recorded`);
    for (;;) {
      const e = await this.d.failoverAfter(run.clusterId, f.shard, f.injectedAtMs - 1000).catch(() => undefined);
      if (e || this.now() >= deadline || run.finished) return e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  private async finish(
    run: BenchmarkRun,
    state: 'succeeded' | 'failed' | 'cancelled',
    error?: { code: string; message: string },
    result?: Parameters<BenchmarkStore['finish']>[1]['result'],
    histograms?: BenchmarkHistograms,
  ): Promise<void> {
    if (run.finished) return;
    run.finished = true;
    run.state = state;
    await this.d.store.finish(run.id, { state, result, histograms, error });
    run.emit({ state, progress: state === 'succeeded' ? 1 : run.progress, detail: error?.message ?? 'finished' });
    run.listeners.clear();
    // Keep the run a little so late reports get `exit`/`stop`.
    setTimeout(() => this.runs.delete(run.id), 60_000).unref();
    this.d.log.info({ benchmarkId: run.id, state }, 'benchmark finished');
  }

  /** Drops workers that went silent; the run continues with the others and is marked invalid. */
  private watchdog(): void {
    const now = this.now();
    for (const run of this.runs.values()) {
      if (run.finished) continue;
      for (const h of run.live()) {
        if (now - h.lastSeen > WORKER_SILENCE_MS) {
          h.lost = `the worker on node ${h.address} stopped reporting for ${Math.round((now - h.lastSeen) / 1000)} s`;
          run.lostMessages.push(h.lost);
          this.d.log.warn({ benchmarkId: run.id, nodeId: h.nodeId }, h.lost);
        }
      }
      if (run.live().length === 0) {
        void this.finish(run, 'failed', { code: 'workers_lost', message: run.lostMessages.join('; ') });
      } else if (run.lostMessages.length) {
        void this.advance(run);
      }
    }
  }
}

