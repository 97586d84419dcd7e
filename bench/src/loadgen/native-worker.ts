/**
 * The native load generator worker (bench/native/ycsb-worker.c): built when
 * the project installs (`npm run build:native`, bench/scripts/build-native.mjs)
 * into bench/native/build/ycsb-worker, never at run time; run as one child
 * process per load generator thread, its JSON lines turned into the worker
 * threads' FromWorker messages, so the coordinator, agents and control plane
 * see no difference. Only closed-loop YCSB runs use it (see load-generator.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodeHistogram, newHistogram, type Histogram } from '../histogram';
import { YCSB_MIXES, ycsbLetter } from '../workloads';
import type { FromWorker, OpCounts, ToWorker, WorkerConfig } from './protocol';

/** Where `npm run build:native` puts the binary. */
export const NATIVE_WORKER_BINARY = fileURLToPath(new URL('../../native/build/ycsb-worker', import.meta.url));

/** The command that builds it, named in every message about a missing binary. */
export const BUILD_NATIVE_COMMAND = 'npm run build:native';

/** `binary` when it exists and is executable, else why not (a message naming the build command). */
export function findNativeWorker(binary: string = NATIVE_WORKER_BINARY): { binary: string } | { missing: string } {
  try {
    accessSync(binary, constants.X_OK);
    return { binary };
  } catch {
    return { missing: `the native worker is not built (no executable ${binary}): run ${BUILD_NATIVE_COMMAND}` };
  }
}

/** The workloads the worker runs (ycsb-spec.h's mixes, generated from YCSB_MIXES), by letter. */
const WORKLOAD_LETTER: Partial<Record<WorkerConfig['workload'], string>> = Object.fromEntries(
  (Object.keys(YCSB_MIXES) as (keyof typeof YCSB_MIXES)[]).map((w) => [w, ycsbLetter(w)]),
);

/** Whether the native worker can run this configuration's run phase: closed-loop YCSB. */
export function nativeEligible(cfg: Pick<WorkerConfig, 'workload' | 'targetOpsPerSec'>): boolean {
  return WORKLOAD_LETTER[cfg.workload] !== undefined && cfg.targetOpsPerSec === undefined;
}

/** [value, count, value, count, ...] (HdrHistogram bucket lowest values) recorded into a histogram. */
export function histogramFromPairs(pairs: number[]): Histogram {
  const h = newHistogram();
  for (let i = 0; i < pairs.length; i += 2) h.recordValueWithCount(pairs[i]!, pairs[i + 1]!);
  return h;
}

interface NativeOps {
  op: string;
  count: number;
  errors: number;
  misses: number;
  h: number[];
}

function toOpCounts(ops: NativeOps[]): OpCounts[] {
  return ops.map((o) => ({ op: o.op, count: o.count, errors: o.errors, misses: o.misses, service: encodeHistogram(histogramFromPairs(o.h)) }));
}

/** A native worker line as the worker threads' message. */
export function toFromWorker(line: Record<string, unknown>): FromWorker {
  switch (line.type) {
    case 'ready':
      return { type: 'ready', primaries: line.primaries as string[] };
    case 'interval':
      return { type: 'interval', t: line.t as number, phase: line.phase as 'warmup' | 'steady', ops: toOpCounts(line.ops as NativeOps[]) };
    case 'done':
      return {
        type: 'done',
        ops: toOpCounts(line.ops as NativeOps[]),
        endpointCommands: line.endpointCommands as Record<string, number>,
        steadyStartMs: line.steadyStartMs as number,
        steadyEndMs: line.steadyEndMs as number,
        // CPU time over wall time of the steady window: the process's busy share, as ELU is a thread's
        elu: line.cpu as number,
        redirects: line.redirects as number,
        firstError: line.firstError as string | undefined,
      };
    case 'error':
      return { type: 'error', message: `native load generator worker: ${String(line.message)}` };
    default:
      return { type: 'error', message: `native load generator worker: unexpected output ${JSON.stringify(line).slice(0, 200)}` };
  }
}

/** One native worker process: the run phase of one load generator thread. */
export class NativeWorker {
  private readonly child: ChildProcess;
  private readonly listeners = new Set<(m: FromWorker) => void>();
  private exited: Promise<void>;
  private closing = false;
  private stderr = '';

  constructor(binary: string, cfg: WorkerConfig) {
    const args = ['-w', WORKLOAD_LETTER[cfg.workload]!, '-r', String(cfg.recordCount), '-c', String(cfg.clients), '-p', String(cfg.pipeline)];
    args.push('-S', String(cfg.seed), '-i', String(cfg.workerIndex), '-n', String(cfg.workerCount), ...cfg.seeds.flatMap((s) => ['-s', s]));
    if (cfg.keyPrefix) args.push('-K', cfg.keyPrefix);
    // credentials through the environment: argv is visible to every user of the host
    // (and nothing else of this process's environment: the worker needs none)
    const env: Record<string, string> = cfg.auth ? { STRATA_AUTH_USER: cfg.auth.username, STRATA_AUTH_PASS: cfg.auth.password } : {};
    this.child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    this.child.stdin!.on('error', () => {}); // a dead child: reported by 'exit'
    createInterface({ input: this.child.stdout! }).on('line', (l) => {
      let m: FromWorker;
      try {
        m = toFromWorker(JSON.parse(l) as Record<string, unknown>);
      } catch {
        m = { type: 'error', message: `native load generator worker: bad output ${l.slice(0, 200)}` };
      }
      this.emit(m);
    });
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.emit({ type: 'error', message: `native load generator worker did not start: ${err.message}` });
        resolve();
      });
      this.child.on('exit', (code, signal) => {
        if (!this.closing) this.emit({ type: 'error', message: `native load generator worker exited (${signal ?? `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}` });
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  on(l: (m: FromWorker) => void): void {
    this.listeners.add(l);
  }

  private emit(m: FromWorker): void {
    for (const l of this.listeners) l(m);
  }

  /** 'run' and 'stop' (the only commands of a run phase). */
  postMessage(m: ToWorker): void {
    if (m.cmd === 'run') this.child.stdin!.write(`run ${m.startAtMs} ${m.warmupSec} ${m.durationSec ?? -1} ${m.operationCount ?? -1}\n`);
    else if (m.cmd === 'stop') this.child.stdin!.write('stop\n');
    else this.emit({ type: 'error', message: `the native worker does not do '${m.cmd}'` });
  }

  /** Ends the process (by its PID) and waits for it. */
  async terminate(): Promise<void> {
    this.closing = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}
