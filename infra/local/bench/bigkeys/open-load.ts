/**
 * The big-key bench's open-loop load: the project's load generator (worker
 * threads, HdrHistograms) sending GET/SET 3:1 at a fixed rate, each op at its
 * intended start whether or not earlier ones answered. Its one-second
 * intervals are pooled into the bench's named windows (by each interval's
 * midpoint); latency is response time (intended start -> reply), service
 * time (send -> reply) beside it.
 */
import { LoadGenerator, type IntervalPoint, type LoadGeneratorOptions, type RunSummary } from '@strata/bench/loadgen';
import { decodeHistogram, mergeHistograms, summarize, type Histogram } from '@strata/bench';

export interface WindowStats { n: number; opsPerSec: number; p50: number; p99: number; p999: number; serviceP99: number }

export class OpenLoad {
  private readonly intervals: { endMs: number; response: Histogram[]; service: Histogram[]; count: number; errors: number }[] = [];
  private readonly spans = new Map<string, { from: number; to: number }>();
  private current: string | null = null;
  private run?: Promise<RunSummary>;
  private startAtMs = 0;
  private readonly warmupSec = 2;
  errors = 0;

  private constructor(private g: LoadGenerator, private readonly options: LoadGeneratorOptions) {}

  /** Loads `records` keys (memtier-<n>, `valueSize` bytes) and returns the load, not yet running. */
  static async prepare(o: { seeds: string[]; auth: { username: string; password: string }; records: number; valueSize: number }): Promise<OpenLoad> {
    const options: LoadGeneratorOptions = {
      threads: 1, connections: 16, pipeline: 1, seeds: o.seeds, auth: o.auth, workload: 'getset', recordCount: o.records,
      seed: 11, valueSize: o.valueSize, ratio: '1:3', keyPattern: 'uniform', engine: 'js',
    };
    const g = await LoadGenerator.start(options);
    const loaded = await g.load(0, o.records);
    if (loaded.errors) throw new Error(`loading the keys: ${loaded.errors} errors (${loaded.firstError})`);
    return new OpenLoad(g, options);
  }

  /** The client's capacity: a closed-loop run of `seconds` (after a 1 s warm-up), in ops/s. */
  async capacity(seconds: number): Promise<{ opsPerSec: number; busiestThread: number }> {
    const s = await this.g.run({ startAtMs: Date.now() + 100, warmupSec: 1, durationSec: seconds });
    const total = s.ops.reduce((a, o) => a + o.count, 0);
    return { opsPerSec: total / ((s.steadyEndMs - s.steadyStartMs) / 1000), busiestThread: s.maxElu };
  }

  /** Starts the open-loop run at `rate` ops/s (for at most `maxSec`; `end` stops it). */
  async start(rate: number, maxSec: number): Promise<void> {
    // The generator fixes its rate when its threads start: a fresh one, same keys, already loaded.
    await this.g.close();
    this.g = await LoadGenerator.start({ ...this.options, targetOpsPerSec: rate });
    this.startAtMs = Date.now() + 200;
    this.run = this.g.run({ startAtMs: this.startAtMs, warmupSec: this.warmupSec, durationSec: maxSec }, (p) => this.onInterval(p));
    await new Promise((r) => setTimeout(r, 200 + this.warmupSec * 1000));
  }

  private onInterval(p: IntervalPoint): void {
    if (p.phase !== 'steady') return;
    this.intervals.push({
      endMs: this.startAtMs + (this.warmupSec + p.t) * 1000,
      response: p.ops.map((o) => decodeHistogram(o.response ?? o.service)),
      service: p.ops.map((o) => decodeHistogram(o.service)),
      count: p.ops.reduce((a, o) => a + o.count, 0),
      errors: p.ops.reduce((a, o) => a + o.errors, 0),
    });
  }

  enter(name: string): void {
    const now = Date.now();
    if (this.current) this.spans.get(this.current)!.to = now;
    this.current = name;
    this.spans.set(name, { from: now, to: now });
  }

  /** Latency of the windows named (pooled), in ms. */
  stats(names: string[]): WindowStats {
    const inWindow = (endMs: number) => names.some((n) => { const s = this.spans.get(n)!; const mid = endMs - 500; return mid >= s.from && mid < s.to; });
    const picked = this.intervals.filter((i) => inWindow(i.endMs));
    const secs = picked.length;
    const response = mergeHistograms(picked.flatMap((i) => i.response));
    const service = mergeHistograms(picked.flatMap((i) => i.service));
    const r = summarize(response);
    const s = summarize(service);
    const n = picked.reduce((a, i) => a + i.count, 0);
    return { n, opsPerSec: secs ? n / secs : NaN, p50: r.p50 / 1000, p99: r.p99 / 1000, p999: r.p999 / 1000, serviceP99: s.p99 / 1000 };
  }

  /** Stops the run; its summary says whether the client kept its schedule (lag) and how busy its thread was. */
  async end(): Promise<{ scheduleLagP99Us?: number; busiestThread: number; errors: number }> {
    if (this.current) this.spans.get(this.current)!.to = Date.now();
    this.g.stop();
    const s = await this.run!;
    await this.g.close();
    this.errors = this.intervals.reduce((a, i) => a + i.errors, 0);
    return { scheduleLagP99Us: s.scheduleLagP99Us, busiestThread: s.maxElu, errors: this.errors };
  }
}
