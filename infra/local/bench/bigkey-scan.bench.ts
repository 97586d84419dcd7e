/**
 * Big-key scan benchmark: a 3-shard cluster holding KEYS small keys (default
 * 300,000) and 3 big strings (1, 2.5 and 5 MB) per shard, under a client
 * load (WORKERS loops, default 8, each a GET or SET of a random key at a
 * time). It measures the client's latency in windows of WINDOW_S seconds
 * (default 10): before, during Strata's key scan (POST
 * /v1/clusters/{id}/diagnostics/key-scans with its defaults), between, and
 * during the reference tool, `redis-cli --memkeys` (the same SCAN + MEMORY
 * USAGE, run on every primary at once, no pause), each followed by a quiet
 * window. It prints p50/p99/p99.9 and ops/s per window, the servers' own
 * p99 of GET and SET in each window (LATENCY HISTOGRAM deltas summed over the
 * primaries: what Redis itself spent, apart from the client's host), each scan's time,
 * whether each found the planted keys, and the p99 change against the
 * windows around it (goal: Strata's scan < 10 %). Prints the load average at
 * start and end (other work on the machine moves every figure). Asserts
 * nothing.
 *
 *   npm run bench:bigkeys            (KEYS=300000 WORKERS=8 WINDOW_S=10)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import type { Connection, KeyScan, Topology } from '@strata/api';
import { latencyDelta, parseLatencyHistogram, summarizeBuckets, type CommandLatency } from '@strata/bench';
import { startStack } from '../src/stack';

const KEYS = Number(process.env.KEYS ?? 300_000);
const WORKERS = Number(process.env.WORKERS ?? 8);
const WINDOW_S = Number(process.env.WINDOW_S ?? 10);
const PREFIX = '127.0.67';
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
  stats(name: string) {
    const xs = this.lat.get(name) ?? [];
    const span = this.spans.get(name)!;
    return { n: xs.length, opsPerSec: xs.length / ((span.to - span.from) / 1000), p50: q(xs, 0.5), p99: q(xs, 0.99), p999: q(xs, 0.999) };
  }
  async end(): Promise<void> {
    this.enter('end');
    this.stop = true;
    await Promise.all(this.loops);
  }
}

/** Loads k:0..KEYS-1 with pipelined SETs (auto-pipelining client) and the planted big keys; returns the big keys of each shard. */
async function load(c: Cluster, topo: Topology): Promise<string[][]> {
  for (let i = 0; i < KEYS; i += 5000) {
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
const stack = await startStack({ dir, addressPrefix: PREFIX, port: 0, nodes: 3, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
console.log(`load average at start (1 / 5 / 15 min): ${loadAverage()}; ${os.cpus().length} cores; ${KEYS.toLocaleString()} keys + 3 big per shard; ${WORKERS} client loops; ${WINDOW_S} s windows`);
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

  const loadClient = client(conn.seeds, auth);
  const lg = new Load(loadClient).start();
  lg.probes = primaries.map((a) => new Redis({ host: a.slice(0, a.lastIndexOf(':')), port: Number(a.slice(a.lastIndexOf(':') + 1)), ...auth }));
  await sleep(3000);
  await lg.enterWithServer('before');
  await sleep(WINDOW_S * 1000);

  await lg.enterWithServer('strata scan');
  t = performance.now();
  const started = await api<KeyScan>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, {});
  let scan = started;
  while (scan.status === 'running') {
    await sleep(250);
    scan = await api<KeyScan>('GET', `/v1/clusters/${id}/diagnostics/key-scans/${started.id}`);
  }
  const strataMs = performance.now() - t;
  await lg.enterWithServer('between');
  await sleep(WINDOW_S * 1000);

  await lg.enterWithServer('redis-cli --memkeys');
  t = performance.now();
  const cli = await Promise.all(primaries.map((a) => memkeys(a, auth)));
  const cliMs = performance.now() - t;
  await lg.enterWithServer('after');
  await sleep(WINDOW_S * 1000);
  await lg.enterWithServer('end');
  await lg.end();
  loadClient.disconnect();
  for (const p of lg.probes) p.disconnect();

  const order = ['before', 'strata scan', 'between', 'redis-cli --memkeys', 'after', 'end'];
  const rows = order.slice(0, -1).map((w, i) => ({ w, ...lg.stats(w), server: lg.serverP99(w, order[i + 1]!) }));
  console.log('\nwindow                  ops      ops/s    p50 ms   p99 ms  p99.9 ms   server p99 (GET/SET, µs, at most)');
  for (const r of rows) {
    console.log(`${r.w.padEnd(22)} ${String(r.n).padStart(7)} ${Math.round(r.opsPerSec).toString().padStart(9)} ${r.p50.toFixed(3).padStart(9)} ${r.p99.toFixed(3).padStart(8)} ${r.p999.toFixed(3).padStart(9)}   ${r.server}`);
  }
  const quiet = (a: string, b: string) => Math.max(lg.stats(a).p99, lg.stats(b).p99);
  const change = (w: string, around: [string, string]) => (lg.stats(w).p99 / quiet(...around) - 1) * 100;
  const strataFound = scan.shards.every((s) => JSON.stringify(s.result?.bigKeys.slice(0, 3).map((k) => k.key)) === JSON.stringify([...big[s.shard]!].reverse()));
  const cliFound = cli.every((c, i) => c.biggest === big[i]![2]);
  console.log(`\nstrata scan: ${(strataMs / 1000).toFixed(1)} s (${scan.shards.map((s) => `shard ${s.shard + 1}: ${s.result?.keysScanned ?? '?'} keys in ${((s.result?.elapsedMs ?? 0) / 1000).toFixed(1)} s, ${s.result?.batches ?? '?'} batches`).join('; ')}); found every planted key in order: ${strataFound}`);
  console.log(`redis-cli --memkeys (3 primaries at once): ${(cliMs / 1000).toFixed(1)} s; named each shard's 5 MB key: ${cliFound}`);
  console.log(`client p99 during strata scan vs the worse quiet window around it: ${change('strata scan', ['before', 'between']) >= 0 ? '+' : ''}${change('strata scan', ['before', 'between']).toFixed(1)} % (goal < 10 %): ${change('strata scan', ['before', 'between']) < 10 ? 'met' : 'NOT met'}`);
  console.log(`client p99 during redis-cli --memkeys vs the worse quiet window around it: ${change('redis-cli --memkeys', ['between', 'after']) >= 0 ? '+' : ''}${change('redis-cli --memkeys', ['between', 'after']).toFixed(1)} %`);
  console.log(`client errors: ${lg.errors}; load average at end: ${loadAverage()}`);
} finally {
  await stack.stop();
  if (process.env.STRATA_KEEP_TEST_DIRS) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
