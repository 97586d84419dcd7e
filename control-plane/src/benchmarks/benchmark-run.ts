/**
 * In-memory state of one active benchmark: its hosts (one `benchmark` task
 * per agent), the step every host is on, and what they reported. The
 * coordinator answers each report with the host's next command.
 */
import type { BenchmarkRequest, BenchmarkState, BenchmarkWorkerCommand, BenchmarkPoint } from '@strata/api';
import type { HostRun, OpCounts } from '@strata/bench';

export interface HostState {
  index: number;
  nodeId: string;
  address: string;
  threads: number;
  connections: number;
  taskId?: string;
  lastSeen: number;
  lost?: string;
  primaries: string[];
  /** step this host has been told to do, and the last step it finished */
  stepSent: number;
  stepDone: number;
  loadDone: number;
  loaded?: { inserted: number; errors: number; firstError?: string };
  done?: HostRun;
  keyCount?: number;
  serverCommands?: Record<string, number>;
  serverLatency?: Record<string, { calls: number; buckets: [number, number][] }>;
  analytic?: { records: number; sentences: number; ms: number; longestBatchMs: number; errors: number; firstError?: string };
}

/** The fault a "failover under load" run injects, and what became of it. */
export interface RunFault {
  kind: 'kill-primary';
  shard: number;
  instanceId: string;
  nodeId: string;
  endpoint: string;
  injectedAtMs?: number;
  injectError?: string;
}

export type Step = { kind: 'start' } | { kind: 'load' } | { kind: 'run'; startAtMs: number } | { kind: 'analytic'; round: number };

export interface RunEvent {
  state: BenchmarkState;
  progress: number;
  detail?: string;
  point?: BenchmarkPoint;
}

export class BenchmarkRun {
  readonly hosts: HostState[];
  steps: Step[] = [{ kind: 'start' }];
  state: BenchmarkState = 'pending';
  progress = 0;
  detail = 'starting load generators';
  finished = false;
  /** the result is being built (workers wait) */
  completing = false;
  readonly intervals = new Map<number, Map<number, OpCounts[]>>();
  readonly points: BenchmarkPoint[] = [];
  readonly analyticRuns: NonNullable<HostState['analytic']>[] = [];
  loadStartedAt = 0;
  loadSec = 0;
  readonly listeners = new Set<(e: RunEvent) => void>();
  readonly lostMessages: string[] = [];

  constructor(
    readonly id: string,
    readonly clusterId: string,
    readonly request: BenchmarkRequest,
    readonly seed: number,
    hosts: Omit<HostState, 'lastSeen' | 'primaries' | 'stepSent' | 'stepDone' | 'loadDone'>[],
    now: number,
    readonly fault?: RunFault,
  ) {
    this.hosts = hosts.map((h) => ({ ...h, lastSeen: now, primaries: [], stepSent: 0, stepDone: -1, loadDone: 0 }));
  }

  get step(): number {
    return this.steps.length - 1;
  }
  get current(): Step {
    return this.steps[this.step]!;
  }
  live(): HostState[] {
    return this.hosts.filter((h) => !h.lost);
  }
  allDone(): boolean {
    return this.live().every((h) => h.stepDone >= this.step);
  }
  primaries(): string[] {
    return this.hosts.reduce<string[]>((a, h) => (h.primaries.length > a.length ? h.primaries : a), []);
  }

  emit(e: RunEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** The command for a host at the current step (each step is sent once). */
  commandFor(h: HostState): BenchmarkWorkerCommand {
    if (this.finished) return { action: 'exit' };
    if (h.stepSent >= this.step || h.stepDone >= this.step) return { action: 'wait' };
    const s = this.current;
    h.stepSent = this.step;
    const r = this.request;
    switch (s.kind) {
      case 'start':
        return { action: 'wait' };
      case 'load': {
        const n = this.live().length;
        const i = this.live().indexOf(h);
        return { action: 'load', from: Math.floor((r.recordCount * i) / n), to: Math.floor((r.recordCount * (i + 1)) / n) };
      }
      case 'run':
        return {
          action: 'run',
          startAtMs: s.startAtMs,
          warmupSec: r.warmupSec,
          durationSec: r.operationCount === undefined ? (r.durationSec ?? 10) : undefined,
          operationCount: r.operationCount === undefined ? undefined : Math.ceil(r.operationCount / this.live().length),
          measureServer: h === this.live()[0],
          fault:
            this.fault && r.fault && h.nodeId === this.fault.nodeId
              ? { instanceId: this.fault.instanceId, atMs: s.startAtMs + (r.warmupSec + r.fault.atSec) * 1000 }
              : undefined,
          watchEndpoint: this.fault?.endpoint,
        };
      case 'analytic': {
        const live = this.live();
        const i = live.indexOf(h);
        return { action: 'analytic', primaries: this.primaries().filter((_, j) => j % live.length === i) };
      }
    }
  }
}
