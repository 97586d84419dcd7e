/**
 * Runs this host's part of a benchmark (a `benchmark` task): starts the load
 * generator's threads, then does what the control plane answers to each
 * report (load a key range, run at a common start time, scan for the
 * analytic query, stop, exit). The first host also reads the key count and
 * the servers' command counters for the steady window.
 *
 * A run stays in its own key space (`keyPrefix`, bench-keys.ts in
 * @strata/bench): the first host first sweeps keys a crashed earlier run left
 * under the benchmark space, the key count is of the run's own keys, and
 * every host removes the run's keys when it ends (succeeded, failed,
 * cancelled or the agent stopping). The customer's keys are never read.
 */
import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { BenchmarkWorkerCommand, BenchmarkWorkerReport, TaskPayload } from '@strata/api';
import { internalLogin } from '@strata/engine/redis-admin';
import { LoadGenerator, countKeys, removeKeys, type LoadGeneratorOptions } from '@strata/bench/loadgen';
import { BENCH_KEY_SPACE, latencyDelta, parseLatencyHistogram, workloadCommands, type CommandLatency } from '@strata/bench';

type BenchmarkPayload = Extract<TaskPayload, { kind: 'benchmark' }>;

export interface BenchmarkWorkerDeps {
  report: (r: BenchmarkWorkerReport) => Promise<BenchmarkWorkerCommand>;
  log: Logger;
  stopping: AbortSignal;
  /** Fault injection: kill -9 of an engine this agent supervises (its supervisor then treats it as a crash). */
  killEngine?: (instanceId: string) => Promise<void>;
  /** Which worker runs closed-loop YCSB run phases, and the native worker's binary (the agent's config). */
  loadgen?: Pick<LoadGeneratorOptions, 'engine' | 'nativeWorker'>;
}

export async function runBenchmarkTask(p: BenchmarkPayload, d: BenchmarkWorkerDeps): Promise<void> {
  // A TLS cluster: every load connection verifies the instances against the cluster's CA and presents Strata's client certificate.
  const tls = internalLogin(p.credentials).tls;
  const auth = { username: p.credentials.customerUser, password: p.credentials.customerPassword, ...(tls ? { tls } : {}) };
  if (p.workerIndexBase === 0) {
    // Keys of an earlier run that could not remove them (its agent crashed): one benchmark runs per cluster at a time.
    const swept = await removeKeys(p.seeds, auth, BENCH_KEY_SPACE).catch((err: Error) => {
      d.log.warn({ err: err.message }, 'benchmark: could not sweep keys left by an earlier run');
      return 0;
    });
    if (swept > 0) d.log.info({ swept }, 'benchmark: removed keys an earlier run left behind');
  }
  let gen: LoadGenerator;
  try {
    gen = await LoadGenerator.start({
      threads: p.threads,
      connections: p.connections,
      pipeline: p.pipeline,
      targetOpsPerSec: p.targetOpsPerSec,
      seeds: p.seeds,
      auth,
      workload: p.workload,
      recordCount: p.recordCount,
      seed: p.seed,
      valueSize: p.valueSize,
      ratio: p.ratio,
      keyPattern: p.keyPattern,
      workerIndexBase: p.workerIndexBase,
      workerCountTotal: p.workerCountTotal,
      keyPrefix: p.keyPrefix,
      ...d.loadgen,
    });
  } catch (err) {
    await d.report({ kind: 'failed', message: `load generator did not start: ${(err as Error).message}` }).catch(() => {});
    throw err;
  }
  const admin = new ServerCounters(gen.primaries, auth, p.keyPrefix);
  try {
    let cmd = await d.report({ kind: 'ready', primaries: gen.primaries });
    for (;;) {
      if (d.stopping.aborted) throw new Error('agent stopping');
      switch (cmd.action) {
        case 'wait':
        case 'stop':
          await new Promise((r) => setTimeout(r, 200));
          cmd = await d.report({ kind: 'poll' });
          break;
        case 'load': {
          let last = 0;
          const r = await gen.load(cmd.from, cmd.to, (done) => {
            if (Date.now() - last < 500) return;
            last = Date.now();
            void d.report({ kind: 'load-progress', done }).then((c) => c.action === 'stop' && gen.stop(), () => {});
          });
          cmd = await d.report({ kind: 'loaded', ...r });
          break;
        }
        case 'run': {
          const run = cmd;
          const keyCount = run.measureServer ? await admin.keyCount() : undefined;
          let startCounters: Promise<ServerSnapshot> | undefined;
          const timers: NodeJS.Timeout[] = [];
          if (run.measureServer) {
            const steadyAt = run.startAtMs + run.warmupSec * 1000;
            timers.push(setTimeout(() => (startCounters = admin.snapshot()), Math.max(0, steadyAt - Date.now())));
          }
          if (run.fault) {
            const fault = run.fault;
            timers.push(
              setTimeout(() => {
                const injectedAtMs = Date.now();
                const kill = d.killEngine ? d.killEngine(fault.instanceId) : Promise.reject(new Error('this agent cannot inject faults'));
                void kill.then(
                  () => d.report({ kind: 'fault', injectedAtMs }),
                  (err: Error) => d.report({ kind: 'fault', injectedAtMs, error: err.message }),
                ).catch(() => {});
                d.log.warn({ instanceId: fault.instanceId }, 'benchmark fault: killing the engine (kill -9)');
              }, Math.max(0, fault.atMs - Date.now())),
            );
          }
          const summary = await gen.run(
            { startAtMs: run.startAtMs, warmupSec: run.warmupSec, durationSec: run.durationSec, operationCount: run.operationCount, watchEndpoint: run.watchEndpoint },
            (point) => void d.report({ kind: 'interval', t: point.t, phase: point.phase, ops: point.ops }).then((c) => c.action === 'stop' && gen.stop(), () => {}),
          );
          const endCounters = run.measureServer && startCounters ? admin.snapshot() : undefined;
          timers.forEach(clearTimeout);
          let serverCommands: Record<string, number> | undefined;
          let serverLatency: Record<string, { calls: number; buckets: [number, number][] }> | undefined;
          if (startCounters && endCounters) {
            const [a, b] = await Promise.all([startCounters, endCounters]);
            const cmds = workloadCommands(p.workload);
            serverLatency = Object.fromEntries([...b.latency].filter(([e]) => a.latency.has(e)).map(([e, l]) => [e, latencyDelta(a.latency.get(e)!, l, cmds)]));
            // The server's own call counters of the workload's commands: total_commands_processed would also count
            // the agent's status and metrics sampling (~15 commands/s per instance), 5 % of a 1,000 ops/s run.
            serverCommands = Object.fromEntries(Object.entries(serverLatency).map(([e, l]) => [e, l.calls]));
          }
          cmd = await d.report({ kind: 'done', ...summary, keyCount, serverCommands, serverLatency });
          break;
        }
        case 'analytic': {
          const r = await gen.analytic(cmd.primaries);
          cmd = await d.report({ kind: 'analytic', ...r });
          break;
        }
        case 'exit':
          return;
      }
    }
  } catch (err) {
    await d.report({ kind: 'failed', message: (err as Error).message }).catch(() => {});
    throw err;
  } finally {
    admin.close();
    await gen.close();
    await removeKeys([...gen.primaries, ...p.seeds], auth, p.keyPrefix).then(
      (removed) => d.log.info({ benchmarkId: p.benchmarkId, removed }, "benchmark: removed the run's keys"),
      (err: Error) => d.log.warn({ benchmarkId: p.benchmarkId, err: err.message }, "benchmark: could not remove the run's keys; the next run sweeps them"),
    );
  }
}

interface ServerSnapshot {
  latency: Map<string, CommandLatency>;
}

/** Standalone connections to each primary for LATENCY HISTOGRAM, and the run's key count. */
class ServerCounters {
  private readonly clients = new Map<string, Redis>();
  constructor(
    private readonly primaries: string[],
    private readonly auth: { username: string; password: string; tls?: { ca: string; cert?: string; key?: string } },
    private readonly keyPrefix: string,
  ) {}

  private client(endpoint: string): Redis {
    let c = this.clients.get(endpoint);
    if (!c) {
      const i = endpoint.lastIndexOf(':');
      c = new Redis({ host: endpoint.slice(0, i), port: Number(endpoint.slice(i + 1)), ...this.auth, maxRetriesPerRequest: 1, lazyConnect: false, commandTimeout: 3000 });
      c.on('error', () => {});
      this.clients.set(endpoint, c);
    }
    return c;
  }

  /** The run's own keys (SCAN MATCH its prefix on each primary): the customer's keys do not count. */
  keyCount(): Promise<number> {
    return countKeys(this.primaries, this.auth, this.keyPrefix);
  }

  /** Per primary: LATENCY HISTOGRAM (per-command calls and latency). A primary that does not answer (killed) is left out. */
  async snapshot(): Promise<ServerSnapshot> {
    const out: ServerSnapshot = { latency: new Map() };
    await Promise.all(
      this.primaries.map(async (e) => {
        try {
          const c = this.client(e);
          out.latency.set(e, parseLatencyHistogram(await c.call('LATENCY', 'HISTOGRAM')));
        } catch {
          // unreachable primary: no server-side figures for it in this window
        }
      }),
    );
    return out;
  }

  close(): void {
    for (const c of this.clients.values()) c.disconnect();
  }
}
