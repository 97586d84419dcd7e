/**
 * Big-key scan benchmark: a 3-shard cluster holding KEYS small keys (default
 * 150,000) and 3 big strings (1, 2.5 and 5 MB) per shard, under a client
 * load (WORKERS loops, default 8, each a GET or SET of a random key at a
 * time). It measures the client's latency in windows, ROUNDS times (default
 * 3): quiet (WINDOW_S seconds, default 10, or as long as the scan before it),
 * during Strata's key scan (POST /v1/clusters/{id}/diagnostics/key-scans with
 * its defaults), quiet, during the reference tool, `redis-cli --memkeys` (the
 * same SCAN + MEMORY USAGE, on every primary at once, no pause); and pools
 * the windows of each kind over the rounds (alternating cancels much of the
 * machine's drift). It prints p50/p99/p99.9 and ops/s per window, the servers' own
 * p99 of GET and SET in each window (LATENCY HISTOGRAM deltas summed over the
 * primaries: what Redis itself spent, apart from the client's host), each scan's time,
 * whether each found the planted keys, and the p99 change against the
 * pooled quiet windows (goal: Strata's scan < 10 %). Prints the load average at
 * start and end (other work on the machine moves every figure). Asserts
 * nothing.
 *
 * The load (docs/benchmarks.md, "how a credible benchmark works"):
 * - open loop (default): the project's load generator (bigkeys/open-load.ts)
 *   first measures the client's capacity (closed loop, 5 s), then sends
 *   GET/SET 3:1 at RATE_PCT (default 25) % of it, each op at its intended
 *   start; latency is response time (intended start -> reply: a stall counts
 *   in full), service time beside it. The run is marked invalid when the
 *   client's thread is busier than 80 % or falls behind its schedule (lag p99
 *   over LAG_LIMIT_MS, default 2): then the client, not the cluster, sets the
 *   latency. The generator wakes on Node's timer, whose resolution is 1 ms,
 *   so a client that keeps its schedule still sends some operations up to
 *   ~1 ms (plus the OS's wake-up) late; one that falls behind lags by its
 *   whole backlog, which grows.
 * - closed loop (LOOP=closed): WORKERS loops (default 8), one command at a
 *   time each, as fast as they can. On 2 cores this saturates the machine:
 *   its p99 says mostly how long a loop waited for a CPU.
 *
 *   npm run bench:bigkeys            (KEYS=150000 ROUNDS=3 WINDOW_S=10 RATE_PCT=25; RATE=<ops/s> fixes the rate)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import type { Connection, KeyScan, Topology } from '@strata/api';
import { latencyDelta, parseLatencyHistogram, summarizeBuckets, type CommandLatency } from '@strata/bench';
import { startStack } from '../src/stack';
import { OpenLoad } from './bigkeys/open-load';

const KEYS = Number(process.env.KEYS ?? 150_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WORKERS = Number(process.env.WORKERS ?? 8);
const OPEN_LOOP = process.env.LOOP !== 'closed';
const RATE_PCT = Number(process.env.RATE_PCT ?? 25);
const WINDOW_S = Number(process.env.WINDOW_S ?? 10);
/** Schedule lag p99 above which the client, not the cluster, sets the latency (timer resolution 1 ms + wake-up). */
const LAG_LIMIT_MS = Number(process.env.LAG_LIMIT_MS ?? 2);
const PREFIX = '127.0.67';
/** The scan's own settings (BATCH, PAUSE_MS); unset: the API's defaults, as a user gets them. */
const SCAN_OPTIONS = {
  ...(process.env.BATCH ? { batchSize: Number(process.env.BATCH) } : {}),
  ...(process.env.PAUSE_MS ? { pauseMs: Number(process.env.PAUSE_MS) } : {}),
};
const BIG = [1 << 20, 2.5 * (1 << 20), 5 << 20];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);
const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');

function client(seeds: string[], auth: { username: string; password: string }): Cluster {
  const c = new Cluster(seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) })), {
    redisOptions: { ...auth, connectTimeout: 2000 }, enableAutoPipelining: false,
  });
  c.on('error', () => {});
  return c;
}

/** WORKERS loops, one command at a time each; latencies (ms) kept per named window. */
class Load {
  window = 'warmup';
  readonly lat = new Map<string, number[]>();
  readonly spans = new Map<string, { from: number; to: number }>();
  errors = 0;
  private stop = false;
  private loops: Promise<void>[] = [];
  constructor(private readonly c: Cluster) {}
  start(): this {
    if (OPEN_LOOP) return this; // windows and the servers' histograms only: OpenLoad sends the ops
    for (let w = 0; w < WORKERS; w++) this.loops.push((async () => {
      for (let n = 0; !this.stop; n++) {
        const i = Math.floor(Math.random() * KEYS);
        const t = performance.now();
        try {
          if (n % 4 === 0) await this.c.set(`k:${i}`, `v${i}`);
          else await this.c.get(`k:${i}`);
          const list = this.lat.get(this.window) ?? [];
          list.push(performance.now() - t);
          this.lat.set(this.window, list);
        } catch {
          this.errors++;
        }
      }
    })());
    return this;
  }
  /** The primaries' LATENCY HISTOGRAM of get and set at each window's start (for the servers' own p99 per window). */
  readonly server = new Map<string, CommandLatency[]>();
  probes: Redis[] = [];
  async enterWithServer(name: string): Promise<void> {
    this.server.set(name, await Promise.all(this.probes.map(async (p) => parseLatencyHistogram(await p.call('LATENCY', 'HISTOGRAM', 'get', 'set')))));
    this.enter(name);
  }
  serverP99(name: string, next: string): number {
    const a = this.server.get(name);
    const b = this.server.get(next);
    if (!a || !b) return NaN;
    const merged = new Map<number, number>();
    let calls = 0;
    a.forEach((start, i) => {
      const d = latencyDelta(start, b[i]!, ['get', 'set']);
      calls += d.calls;
      for (const [le, n] of d.buckets) merged.set(le, (merged.get(le) ?? 0) + n);
    });
    return summarizeBuckets({ calls, buckets: [...merged.entries()].sort((x, y) => x[0] - y[0]) }).p99;
  }
  enter(name: string): void {
    const now = performance.now();
    const prev = this.spans.get(this.window);
    if (prev) prev.to = now;
    this.window = name;
    this.spans.set(name, { from: now, to: now });
  }
  pooled(names: string[]) {
    const xs = names.flatMap((n) => this.lat.get(n) ?? []);
    const secs = names.reduce((a, n) => { const sp = this.spans.get(n)!; return a + (sp.to - sp.from) / 1000; }, 0);
    return { n: xs.length, opsPerSec: xs.length / secs, p50: q(xs, 0.5), p99: q(xs, 0.99), p999: q(xs, 0.999) };
  }
  async end(): Promise<void> {
    this.enter('end');
    this.stop = true;
    await Promise.all(this.loops);
  }
}

/** Loads k:0..KEYS-1 with pipelined SETs (auto-pipelining client; closed loop only) and the planted big keys; returns the big keys of each shard. */
async function load(c: Cluster, topo: Topology): Promise<string[][]> {
  for (let i = 0; !OPEN_LOOP && i < KEYS; i += 5000) {
    await Promise.all(Array.from({ length: Math.min(5000, KEYS - i) }, (_, k) => c.set(`k:${i + k}`, `v${i + k}`)));
  }
  const big: string[][] = topo.shards.map(() => []);
  for (let i = 0; big.some((l) => l.length < BIG.length); i++) {
    const key = `big:${i}`;
    const slot = Number(await c.cluster('KEYSLOT', key));
    const s = topo.shards.findIndex((sh) => sh.slots.some((r) => r.start <= slot && slot <= r.end));
    if (s < 0 || big[s]!.length >= BIG.length) continue;
    await c.set(key, 'x'.repeat(BIG[big[s]!.length]!));
    big[s]!.push(key);
  }
  return big;
}

/** `redis-cli --memkeys` on one primary: its wall time and the biggest key it names. */
function memkeys(address: string, auth: { username: string; password: string }): Promise<{ ms: number; biggest: string }> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), address.slice(address.lastIndexOf(':') + 1)];
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const p = spawn('redis-cli', ['-h', host, '-p', port, '--user', auth.username, '--pass', auth.password, '--no-auth-warning', '--memkeys'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    p.on('error', reject);
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`redis-cli --memkeys ${address} exited ${code}: ${out.slice(-300)}`));
      // The summary line: Biggest string found "big:12" has 5242936 bytes (the "so far" lines come before it).
      const found = [...out.matchAll(/Biggest\s+string found\s+'?"?([^"' ]+)"?'?\s+has/g)].at(-1)?.[1];
      resolve({ ms: performance.now() - t, biggest: found ?? '?' });
    });
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bigkey-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, nodes: 3, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
console.log(`load average at start (1 / 5 / 15 min): ${loadAverage()}; ${os.cpus().length} cores; ${KEYS.toLocaleString()} keys + 3 big per shard; ${WORKERS} client loops; ${ROUNDS} rounds; ${WINDOW_S} s quiet windows`);
try {
  const { cluster } = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'bigkeys', shards: 3, replicasPerShard: 0, memoryMbPerShard: 512 });
  const id = cluster.id;
  for (;;) {
    if ((await api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`)).status.phase === 'ready') break;
    await sleep(200);
  }
  const conn = await api<Connection>('GET', `/v1/clusters/${id}/connection`);
  const topo = await api<Topology>('GET', `/v1/clusters/${id}/topology`);
  const auth = { username: conn.username, password: conn.password };
  const loader = new Cluster(conn.seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) })), { redisOptions: auth, enableAutoPipelining: true });
  let t = performance.now();
  const big = await load(loader, topo);
  loader.disconnect();
  console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const primaries = topo.shards.map((s) => s.instances.find((i) => i.role === 'primary')!.address);

  let open: OpenLoad | undefined;
  let rate = Number(process.env.RATE ?? 0);
  if (OPEN_LOOP) {
    t = performance.now();
    open = await OpenLoad.prepare({ seeds: conn.seeds, auth, records: KEYS, valueSize: 8 });
    console.log(`${KEYS.toLocaleString()} keys for the open-loop load in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    if (!rate) {
      const cap = await open.capacity(5);
      rate = Math.round((cap.opsPerSec * RATE_PCT) / 100);
      console.log(`client capacity (closed loop, 16 connections, 1 thread): ${Math.round(cap.opsPerSec)} ops/s, thread ${Math.round(cap.busiestThread * 100)} % busy; open loop at ${RATE_PCT} %: ${rate} ops/s`);
    }
    await open.start(rate, 3600);
  }
  const loadClient = client(conn.seeds, auth);
  const lg = new Load(loadClient).start();
  lg.probes = primaries.map((a) => new Redis({ host: a.slice(0, a.lastIndexOf(':')), port: Number(a.slice(a.lastIndexOf(':') + 1)), ...auth }));
  await sleep(3000);

  // ROUNDS of: quiet, Strata's scan, quiet, redis-cli --memkeys; each quiet window as long as the scan before it.
  // Pooling the rounds cancels much of the machine's own drift (other work starts and stops).
  const windows: { name: string; kind: 'quiet' | 'strata' | 'cli' | 'settle' }[] = [];
  const enter = async (name: string, kind: 'quiet' | 'strata' | 'cli' | 'settle') => { windows.push({ name, kind }); await lg.enterWithServer(name); open?.enter(name); };
  const scans: { ms: number; scan: KeyScan }[] = [];
  const clis: { ms: number; found: boolean }[] = [];
  await enter('settle 0', 'settle'); // the load's first seconds (connections, JIT): not counted
  await sleep(WINDOW_S * 1000);
  await enter('quiet 0', 'quiet');
  await sleep(WINDOW_S * 1000);
  for (let round = 1; round <= ROUNDS; round++) {
    await enter(`strata scan ${round}`, 'strata');
    t = performance.now();
    const started = await api<KeyScan>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, SCAN_OPTIONS);
    let scan = started;
    while (scan.status === 'running') {
      // as often as the console asks (every second): the poll's own requests are part of what the window measures
      await sleep(1000);
      scan = await api<KeyScan>('GET', `/v1/clusters/${id}/diagnostics/key-scans/${started.id}`);
    }
    scans.push({ ms: performance.now() - t, scan });
    await enter(`quiet ${round}a`, 'quiet');
    await sleep(Math.max(WINDOW_S * 1000, scans.at(-1)!.ms));
    await enter(`redis-cli ${round}`, 'cli');
    t = performance.now();
    const cli = await Promise.all(primaries.map((a) => memkeys(a, auth)));
    clis.push({ ms: performance.now() - t, found: cli.every((c, i) => c.biggest === big[i]![2]) });
    // redis-cli saturates the primaries for a second or two: an open-loop client then has a backlog of ops to
    // catch up on, whose late replies are not the next window's doing (not counted).
    await enter(`settle ${round}`, 'settle');
    await sleep(WINDOW_S * 1000);
    await enter(`quiet ${round}b`, 'quiet');
    await sleep(WINDOW_S * 1000);
  }
  await lg.enterWithServer('end');
  await lg.end();
  const openEnd = await open?.end();
  loadClient.disconnect();
  for (const p of lg.probes) p.disconnect();

  const windowStats = (names: string[]) => (open ? open.stats(names) : { ...lg.pooled(names), serviceP99: NaN });
  const rows = windows.map((w, i) => ({ ...w, ...windowStats([w.name]), server: lg.serverP99(w.name, windows[i + 1]?.name ?? 'end') }));
  console.log(`\n${open ? `open loop at ${rate} ops/s: latency is response time (intended start -> reply), service p99 is send -> reply` : `closed loop, ${WORKERS} loops: latency is send -> reply`}`);
  console.log('window                  ops      ops/s    p50 ms   p99 ms  p99.9 ms  service p99   server p99 (GET/SET, µs, at most)');
  const line = (name: string, r: { n: number; opsPerSec: number; p50: number; p99: number; p999: number; serviceP99: number }, server: string) =>
    console.log(`${name.padEnd(22)} ${String(r.n).padStart(7)} ${Math.round(r.opsPerSec).toString().padStart(9)} ${r.p50.toFixed(3).padStart(9)} ${r.p99.toFixed(3).padStart(8)} ${r.p999.toFixed(3).padStart(9)} ${(Number.isFinite(r.serviceP99) ? r.serviceP99.toFixed(3) : '-').padStart(12)}   ${server}`);
  for (const r of rows) line(r.name, r, String(r.server));
  const pooled = (kind: string) => windowStats(windows.filter((w) => w.kind === kind).map((w) => w.name));
  const quiet = pooled('quiet');
  const strata = pooled('strata');
  const cliPooled = pooled('cli');
  console.log('');
  line('all quiet windows', quiet, '');
  line('all strata scans', strata, '');
  line('all redis-cli runs', cliPooled, '');
  const change = (x: number) => (x / quiet.p99 - 1) * 100;
  const pctText = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} %`;
  const found = scans.every(({ scan }) => scan.shards.every((s) => JSON.stringify(s.result?.bigKeys.slice(0, 3).map((k) => k.key)) === JSON.stringify([...big[s.shard]!].reverse())));
  const last = scans.at(-1)!.scan;
  console.log(`\nstrata scan: ${scans.map((x) => `${(x.ms / 1000).toFixed(1)} s`).join(', ')} (last: ${last.shards.map((s) => `shard ${s.shard + 1} ${s.result?.keysScanned ?? '?'} keys in ${((s.result?.elapsedMs ?? 0) / 1000).toFixed(1)} s, ${s.result?.batches ?? '?'} batches`).join('; ')}); found every planted key in order: ${found}`);
  console.log(`redis-cli --memkeys (3 primaries at once): ${clis.map((x) => `${(x.ms / 1000).toFixed(1)} s`).join(', ')}; named each shard's 5 MB key: ${clis.every((x) => x.found)}`);
  console.log(`client p99, pooled over ${ROUNDS} rounds: quiet ${quiet.p99.toFixed(3)} ms, during strata's scan ${strata.p99.toFixed(3)} ms (${pctText(change(strata.p99))}; goal < 10 %: ${change(strata.p99) < 10 ? 'met' : 'NOT met'}), during redis-cli --memkeys ${cliPooled.p99.toFixed(3)} ms (${pctText(change(cliPooled.p99))})`);
  const spread = windows.filter((w) => w.kind === 'quiet').map((w) => windowStats([w.name]).p99);
  console.log(`quiet windows' own p99 range (the machine's noise): ${Math.min(...spread).toFixed(3)}-${Math.max(...spread).toFixed(3)} ms; server p99 (GET/SET) ${Math.min(...rows.map((r) => r.server))}-${Math.max(...rows.map((r) => r.server))} µs in every window`);
  if (openEnd) {
    const lag = (openEnd.scheduleLagP99Us ?? 0) / 1000;
    const invalid = [openEnd.busiestThread > 0.8 ? `client thread ${Math.round(openEnd.busiestThread * 100)} % busy (limit 80 %)` : '', lag > LAG_LIMIT_MS ? `schedule lag p99 ${lag.toFixed(2)} ms (limit ${LAG_LIMIT_MS} ms)` : ''].filter(Boolean);
    console.log(`client: thread ${Math.round(openEnd.busiestThread * 100)} % busy, schedule lag p99 ${lag.toFixed(2)} ms, ${openEnd.errors} errors; run ${invalid.length ? `INVALID: ${invalid.join('; ')}` : 'valid'}`);
  }
  console.log(`client errors: ${lg.errors}; load average at end: ${loadAverage()}`);
} finally {
  await stack.stop();
  if (process.env.STRATA_KEEP_TEST_DIRS) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
