/**
 * Runs a benchmark's load on this host: worker threads, each a lean
 * pipelining cluster client (see ops-runner.ts). Merges what its threads
 * measured; a distributed run merges several hosts the same way.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { mergeOpCounts } from '../merge';
import type { FromWorker, OpCounts, ToWorker, WorkerConfig } from './protocol';
import { NativeWorker, findNativeWorker, nativeEligible } from './native-worker';
import { loadHistograms } from '../histogram';

/**
 * Which worker runs a closed-loop YCSB run phase: 'native' (the C worker,
 * bench/native/ycsb-worker.c, built by `npm run build:native`), 'js' (worker
 * threads), or 'auto' (native when its binary is built, else js, saying so
 * in `engineNote`). Everything else (load phase, open loop, getset,
 * analytic, fault-watch runs) always runs in js.
 */
export type LoadGeneratorEngine = 'auto' | 'native' | 'js';

export interface LoadGeneratorOptions extends Omit<WorkerConfig, 'workerIndex' | 'workerCount' | 'clients' | 'targetOpsPerSec'> {
  threads: number;
  /** logical clients on this host, spread over its threads */
  connections: number;
  /** this host's share of the target rate */
  targetOpsPerSec?: number;
  /** global index of this host's first thread, and the total thread count over all hosts (workload D insert keys) */
  workerIndexBase?: number;
  workerCountTotal?: number;
  /** default 'auto' */
  engine?: LoadGeneratorEngine;
  /** the native worker's binary (default: where `npm run build:native` puts it, NATIVE_WORKER_BINARY) */
  nativeWorker?: string;
}

export interface IntervalPoint {
  t: number;
  phase: 'warmup' | 'steady';
  ops: OpCounts[];
}

export interface RunSummary {
  ops: OpCounts[];
  endpointCommands: Record<string, number>;
  steadyStartMs: number;
  steadyEndMs: number;
  /** busiest thread's event loop utilization over the steady window */
  maxElu: number;
  scheduleLagP99Us?: number;
  redirects: number;
  firstError?: string;
  /** acknowledged writes per slot, OR-ed over threads (base64 bitmap; see ops-runner) */
  writeSlots?: { startMs: number; slotMs: number; bits: string };
  /** which worker ran the run phase (absent: js, from hosts older than the native worker) */
  engine?: 'native' | 'js';
  /** why a closed-loop YCSB run phase ran in js although native was not ruled out (e.g. the binary is not built) */
  engineNote?: string;
}

export interface AnalyticRun {
  records: number;
  sentences: number;
  ms: number;
  longestBatchMs: number;
  errors: number;
  firstError?: string;
}

type Listener = (m: FromWorker) => void;

/** OR of the threads' write bitmaps (same start and slot size: one run). */
function orWriteSlots(parts: ({ startMs: number; slotMs: number; bits: Uint8Array } | undefined)[]): RunSummary['writeSlots'] {
  const ok = parts.filter((p): p is NonNullable<typeof p> => p !== undefined);
  if (ok.length === 0) return undefined;
  const out = new Uint8Array(Math.max(...ok.map((p) => p.bits.length)));
  for (const p of ok) for (let i = 0; i < p.bits.length; i++) out[i]! |= p.bits[i]!;
  return { startMs: ok[0]!.startMs, slotMs: ok[0]!.slotMs, bits: Buffer.from(out).toString('base64') };
}

const WORKER_URL = new URL('./worker-boot.mjs', import.meta.url);

export class LoadGenerator {
  private readonly workers: Worker[] = [];
  private readonly listeners: Set<Listener>[] = [];
  /** native workers (one per thread) for closed-loop YCSB runs, when the engine is native */
  private readonly natives: NativeWorker[] = [];
  private readonly nativeListeners: Set<Listener>[] = [];
  primaries: string[] = [];
  /** the engine closed-loop YCSB runs use, and why when it is not the one asked for */
  engine: 'native' | 'js' = 'js';
  engineNote: string | undefined;

  private constructor(private readonly o: LoadGeneratorOptions) {}

  static async start(o: LoadGeneratorOptions): Promise<LoadGenerator> {
    loadHistograms();
    const g = new LoadGenerator(o);
    await g.spawn();
    return g;
  }

  private async spawn(): Promise<void> {
    const n = Math.max(1, Math.min(this.o.threads, this.o.connections));
    const ready: Promise<void>[] = [];
    const binary = this.nativeBinary();
    for (let i = 0; i < n; i++) {
      const clients = Math.floor(this.o.connections / n) + (i < this.o.connections % n ? 1 : 0);
      const cfg: WorkerConfig = {
        workerIndex: (this.o.workerIndexBase ?? 0) + i,
        workerCount: this.o.workerCountTotal ?? n,
        seeds: this.o.seeds,
        auth: this.o.auth,
        workload: this.o.workload,
        recordCount: this.o.recordCount,
        clients,
        pipeline: this.o.pipeline,
        targetOpsPerSec: this.o.targetOpsPerSec === undefined ? undefined : (this.o.targetOpsPerSec * clients) / this.o.connections,
        seed: this.o.seed,
        valueSize: this.o.valueSize,
        ratio: this.o.ratio,
        keyPattern: this.o.keyPattern,
        keyPrefix: this.o.keyPrefix,
      };
      if (binary) {
        const nw = new NativeWorker(binary, cfg);
        const nls = new Set<Listener>();
        nw.on((m) => nls.forEach((l) => l(m)));
        this.natives.push(nw);
        this.nativeListeners.push(nls);
        ready.push(awaitMessage(nls, 'ready').then(() => undefined));
      }
      const w = new Worker(fileURLToPath(WORKER_URL), { workerData: cfg });
      const ls = new Set<Listener>();
      w.on('message', (m: FromWorker) => ls.forEach((l) => l(m)));
      w.on('error', (err) => ls.forEach((l) => l({ type: 'error', message: err.message })));
      // A thread that ends without an error event (e.g. process.exit in it) would leave its step waiting forever.
      w.on('exit', (code) => ls.forEach((l) => l({ type: 'error', message: `load generator thread ${i} exited (code ${code})` })));
      this.workers.push(w);
      this.listeners.push(ls);
      ready.push(
        this.await(i, 'ready').then((m) => {
          if (m.type === 'ready' && m.primaries.length > this.primaries.length) this.primaries = m.primaries;
        }),
      );
    }
    try {
      await Promise.all(ready);
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /** The native worker's binary when this run phase is to use it; undefined = js. */
  private nativeBinary(): string | undefined {
    const asked = this.o.engine ?? 'auto';
    if (!['auto', 'native', 'js'].includes(asked)) throw new Error(`engine must be auto, native or js (got ${asked})`);
    if (asked === 'js') return undefined;
    if (this.o.auth?.tls) {
      // The C worker speaks plain text only.
      this.engineNote = 'the cluster requires TLS: the native worker speaks plain text only, js worker threads ran it';
      return undefined;
    }
    if (!nativeEligible(this.o)) {
      if (asked === 'native') this.engineNote = `${this.o.workload}${this.o.targetOpsPerSec !== undefined ? ' open loop' : ''} runs in js`;
      return undefined;
    }
    const found = findNativeWorker(this.o.nativeWorker);
    if ('missing' in found) {
      if (asked === 'native') throw new Error(found.missing);
      this.engineNote = found.missing;
      return undefined;
    }
    this.engine = 'native';
    return found.binary;
  }

  /** PIDs of the native worker processes (none when closed-loop YCSB runs in js) */
  get nativePids(): number[] {
    return this.natives.map((w) => w.pid).filter((p): p is number => p !== undefined);
  }

  get threadCount(): number {
    return this.workers.length;
  }

  /** Waits for one message type from worker i; a worker error rejects. */
  private await<T extends FromWorker['type']>(i: number, type: T, onOther?: Listener): Promise<Extract<FromWorker, { type: T }>> {
    return awaitMessage(this.listeners[i]!, type, onOther);
  }

  private send(i: number, m: ToWorker): void {
    this.workers[i]!.postMessage(m);
  }

  /** Loads keynums [from, to) split over the threads. `onProgress` gets the records done so far. */
  async load(from: number, to: number, onProgress?: (done: number) => void): Promise<{ inserted: number; errors: number; firstError?: string }> {
    const n = this.workers.length;
    const done = new Array<number>(n).fill(0);
    const parts = await Promise.all(
      this.workers.map((_, i) => {
        const a = from + Math.floor(((to - from) * i) / n);
        const b = from + Math.floor(((to - from) * (i + 1)) / n);
        const p = this.await(i, 'loaded', (m) => {
          if (m.type === 'load-progress') {
            done[i] = m.done;
            onProgress?.(done.reduce((x, y) => x + y, 0));
          }
        });
        this.send(i, { cmd: 'load', from: a, to: b });
        return p;
      }),
    );
    return {
      inserted: parts.reduce((a, p) => a + p.inserted, 0),
      errors: parts.reduce((a, p) => a + p.errors, 0),
      firstError: parts.find((p) => p.firstError)?.firstError,
    };
  }

  /** Runs warm-up then the steady phase starting at `startAtMs` (epoch); `onInterval` gets each second merged over threads. */
  async run(
    r: { startAtMs: number; warmupSec: number; durationSec?: number; operationCount?: number; watchEndpoint?: string },
    onInterval?: (p: IntervalPoint) => void,
  ): Promise<RunSummary> {
    const n = this.workers.length;
    const pendingIntervals = new Map<number, { phase: 'warmup' | 'steady'; parts: OpCounts[][] }>();
    const onMsg = (m: FromWorker) => {
      if (m.type !== 'interval') return;
      const e = pendingIntervals.get(m.t) ?? { phase: m.phase, parts: [] };
      e.parts.push(m.ops);
      pendingIntervals.set(m.t, e);
      if (e.parts.length === n) {
        pendingIntervals.delete(m.t);
        onInterval?.({ t: m.t, phase: e.phase, ops: mergeOpCounts(e.parts) });
      }
    };
    const opCount = r.operationCount === undefined ? undefined : Math.ceil(r.operationCount / n);
    // a fault-watch run needs the acknowledged-writes bitmap, which only the js runner keeps
    const native = this.natives.length > 0 && r.watchEndpoint === undefined;
    this.running = native ? 'native' : 'js';
    const dones = await Promise.all(
      this.workers.map((_, i) => {
        const p = awaitMessage(native ? this.nativeListeners[i]! : this.listeners[i]!, 'done', onMsg);
        const m: ToWorker = { cmd: 'run', startAtMs: r.startAtMs, warmupSec: r.warmupSec, durationSec: r.durationSec, operationCount: opCount, watchEndpoint: r.watchEndpoint };
        if (native) this.natives[i]!.postMessage(m);
        else this.send(i, m);
        return p;
      }),
    ).finally(() => (this.running = undefined));
    for (const [t, e] of [...pendingIntervals.entries()].sort((a, b) => a[0] - b[0])) onInterval?.({ t, phase: e.phase, ops: mergeOpCounts(e.parts) });
    const endpointCommands: Record<string, number> = {};
    for (const d of dones) for (const [e, c] of Object.entries(d.endpointCommands)) endpointCommands[e] = (endpointCommands[e] ?? 0) + c;
    const lags = dones.map((d) => d.scheduleLagP99Us).filter((x): x is number => x !== undefined);
    return {
      ops: mergeOpCounts(dones.map((d) => d.ops)),
      endpointCommands,
      steadyStartMs: Math.min(...dones.map((d) => d.steadyStartMs)),
      steadyEndMs: Math.max(...dones.map((d) => d.steadyEndMs)),
      maxElu: Math.max(...dones.map((d) => d.elu)),
      scheduleLagP99Us: lags.length ? Math.max(...lags) : undefined,
      redirects: dones.reduce((a, d) => a + d.redirects, 0),
      firstError: dones.find((d) => d.firstError)?.firstError,
      writeSlots: orWriteSlots(dones.map((d) => d.writeSlots)),
      engine: native ? 'native' : 'js',
      engineNote: native ? undefined : this.engineNote,
    };
  }
  private running: 'native' | 'js' | undefined;

  /** One analytic pass over the given primaries, split across threads. */
  async analytic(primaries: string[]): Promise<AnalyticRun> {
    const n = this.workers.length;
    const t0 = performance.now();
    const parts = await Promise.all(
      this.workers.map((_, i) => {
        const mine = primaries.filter((_, j) => j % n === i);
        if (mine.length === 0) return Promise.resolve(undefined);
        const p = this.await(i, 'analytic-done');
        this.send(i, { cmd: 'analytic', primaries: mine });
        return p;
      }),
    );
    const ms = performance.now() - t0;
    const ok = parts.filter((p): p is Extract<FromWorker, { type: 'analytic-done' }> => p !== undefined);
    return {
      records: ok.reduce((a, p) => a + p.records, 0),
      sentences: ok.reduce((a, p) => a + p.sentences, 0),
      ms,
      longestBatchMs: Math.max(0, ...ok.map((p) => p.longestBatchMs)),
      errors: ok.reduce((a, p) => a + p.errors, 0),
      firstError: ok.find((p) => p.firstError)?.firstError,
    };
  }

  stop(): void {
    if (this.running === 'native') for (const nw of this.natives) nw.postMessage({ cmd: 'stop' });
    else for (let i = 0; i < this.workers.length; i++) this.send(i, { cmd: 'stop' });
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.map((w) => w.terminate()), ...this.natives.map((w) => w.terminate())]);
  }
}

/** Waits for one message type on a worker's listeners; a worker error rejects. */
function awaitMessage<T extends FromWorker['type']>(listeners: Set<Listener>, type: T, onOther?: Listener): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const l: Listener = (m) => {
      if (m.type === type) {
        listeners.delete(l);
        resolve(m as Extract<FromWorker, { type: T }>);
      } else if (m.type === 'error') {
        listeners.delete(l);
        reject(new Error(m.message));
      } else onOther?.(m);
    };
    listeners.add(l);
  });
}
