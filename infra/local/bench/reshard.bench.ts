/**
 * Resharding benchmark: 3 -> 4 and then 4 -> 3 shards holding KEYS keys
 * (default 1,000,000) under a client load, through Strata's PATCH (live
 * slot migration by the agent, at PRIORITY, default balanced), and in the
 * same run with redis-cli on an identical hand-made cluster (3 loaded
 * primaries, no replicas, same redis-server): `add-node` + `rebalance
 * --cluster-use-empty-masters --cluster-pipeline 100`, then `rebalance
 * --cluster-weight <4th>=0` + `del-node`. For each change and tool it prints
 * time, keys/s, client errors, keys lost, and the client's p50/p99 before
 * and during the change; then the ratios and whether the goals hold
 * (p99 during <= 2x p99 before and <= redis-cli's during; whole change >= 3x
 * faster than redis-cli; 0 lost). Prints the load average at start and end
 * (other work on the machine moves every figure). Asserts nothing.
 *
 *   npm run bench:reshard            (KEYS=1000000 PRIORITY=balanced)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from 'ioredis';
import type { Connection, LiveEvent, MigrationPriority, Operation } from '@strata/api';
import { renderRedisConfig } from '@strata/engine';
import { startStack } from '../src/stack';
import { LiveStreamClient } from '@strata/control-plane/testing';
import { cpuMeter, enginePids } from './process-cpu';

const KEYS = Number(process.env.KEYS ?? 1_000_000);
const PRIORITY = (process.env.PRIORITY ?? 'balanced') as MigrationPriority;
const PREFIX = '127.0.63';
/** The hand-made cluster's address moves with STRATA_TEST_NET like the stack's. */
const HAND = `${process.env.STRATA_TEST_NET ?? '127.0'}.64.1`;
const CREDS = { customerUser: 'app', customerPassword: 'bench-app-pass', internalUser: 'strata-internal', internalPassword: 'bench-internal-pass' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]! : NaN);
const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');

/** autoPipeline for bulk loading and checking; the load client sends plain commands (ioredis does not follow ASK inside auto-pipelines). */
function client(seeds: string[], auth?: { username: string; password: string }, autoPipeline = true): Cluster {
  const c = new Cluster(seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) })), {
    redisOptions: { ...auth, connectTimeout: 2000 }, enableAutoPipelining: autoPipeline, retryDelayOnMoved: 0, retryDelayOnTryAgain: 20,
  });
  c.on('error', () => {});
  return c;
}

/** Redis Cluster's hash slot of a key without a {hash tag}: CRC16-XMODEM mod 16384. */
function calculateSlot(key: string): number {
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** Loads k:0..KEYS-1 fast: one MSET per hash slot, pipelined straight to each slot's primary. */
async function load(c: Cluster): Promise<void> {
  const bySlot = new Map<number, string[]>();
  for (let i = 0; i < KEYS; i++) {
    const key = `k:${i}`;
    const slot = calculateSlot(key);
    const kv = bySlot.get(slot) ?? [];
    kv.push(key, `v${i}`);
    bySlot.set(slot, kv);
  }
  await c.set('k:warmup', 'x');
  await c.del('k:warmup');
  const nodes = c.nodes('master');
  const ranges = (await nodes[0]!.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const nodeOf = (slot: number) => {
    const r = ranges.find(([a, b]) => a <= slot && slot <= b)!;
    return nodes.find((n) => n.options.port === Number(r[2][1]) && n.options.host === r[2][0])!;
  };
  const perNode = new Map<(typeof nodes)[number], string[][]>();
  for (const [slot, kv] of bySlot) {
    const n = nodeOf(slot);
    const list = perNode.get(n) ?? [];
    list.push(kv);
    perNode.set(n, list);
  }
  await Promise.all([...perNode].map(async ([n, cmds]) => {
    for (let i = 0; i < cmds.length; i += 256) {
      const pl = n.pipeline();
      for (const kv of cmds.slice(i, i + 256)) pl.call('MSET', ...kv);
      for (const [err] of (await pl.exec()) ?? []) if (err) throw err;
    }
  }));
}

/**
 * The client load: 8 workers, each a SET or GET (half each) of a random loaded key, one command at a time, as fast as
 * they go; latencies tagged by phase (a name per window), commands counted per phase (the client's throughput).
 */
class Load {
  phase = 'warmup';
  readonly lat = new Map<string, number[]>();
  /** (end time, latency) of every command, for TIMELINE=1. */
  readonly trace: [number, number][] = [];
  errors = 0;
  readonly samples: string[] = [];
  private stop = false;
  private loops: Promise<void>[] = [];
  constructor(private readonly c: Cluster) {}
  private async one(n: number, startedAt: number): Promise<void> {
    const i = Math.floor(Math.random() * KEYS);
    const phase = this.phase;
    try {
      if (n % 2) await this.c.set(`k:${i}`, `v${i}`);
      else await this.c.get(`k:${i}`);
      const list = this.lat.get(phase) ?? [];
      const now = performance.now();
      list.push(now - startedAt);
      this.lat.set(phase, list);
      if (process.env.TIMELINE && phase.startsWith('during')) this.trace.push([now, now - startedAt]);
    } catch (err) {
      this.errors++;
      if (this.samples.length < 3) this.samples.push((err as Error).message.slice(0, 120));
    }
  }
  start(): this {
    for (let w = 0; w < 8; w++) this.loops.push((async () => {
      for (let n = 0; !this.stop; n++) await this.one(n, performance.now());
    })());
    return this;
  }
  of(phase: string): { p50: number; p99: number; n: number } {
    const xs = this.lat.get(phase) ?? [];
    return { p50: pct(xs, 0.5), p99: pct(xs, 0.99), n: xs.length };
  }
  async end(): Promise<void> {
    this.stop = true;
    await Promise.all(this.loops);
  }
}

/** TIMELINE=1: the client's latency in 250 ms windows of a change (commands, p99, max), with the steps' starts. */
function timeline(l: Load, from: number, to: number, steps: { name: string; at: number }[]): void {
  const rows = l.trace.splice(0).filter(([at]) => at >= from && at <= to);
  for (let w = from; w < to; w += 250) {
    const xs = rows.filter(([at]) => at >= w && at < w + 250).map(([, ms]) => ms);
    const starting = steps.filter((st) => st.at >= w - from && st.at < w - from + 250).map((st) => st.name).join(', ');
    console.log(`  ${((w - from) / 1000).toFixed(2).padStart(6)} s  ${String(xs.length).padStart(6)} cmds  p99 ${pct(xs, 0.99).toFixed(2).padStart(6)} ms  max ${Math.max(0, ...xs).toFixed(2).padStart(6)} ms  ${starting}`);
  }
}

async function countKeys(c: Cluster): Promise<{ present: number; total: number }> {
  let present = 0;
  for (let i = 0; i < KEYS; i += 10_000) {
    const vals = await Promise.all(Array.from({ length: Math.min(10_000, KEYS - i) }, (_, k) => c.get(`k:${i + k}`)));
    vals.forEach((v, k) => { if (v === `v${i + k}`) present++; });
  }
  let total = 0;
  for (const n of c.nodes('master')) total += Number(await n.dbsize());
  return { present, total };
}

interface ChangeResult { tool: string; change: string; ms: number; moved: number; errors: number; lost: number; commands: number; before: { p50: number; p99: number }; during: { p50: number; p99: number } }
const results: ChangeResult[] = [];
const fmt = (x: number) => x.toFixed(2);
const record = (r: ChangeResult) => {
  results.push(r);
  console.log(`${`${r.tool} ${r.change}`.padEnd(18)} ${(r.ms / 1000).toFixed(2).padStart(7)} s  ${Math.round(r.moved / (r.ms / 1000)).toLocaleString().padStart(9)} keys/s  errors ${r.errors}  lost ${r.lost}  commands during ${r.commands}  p50 before ${fmt(r.before.p50)} / during ${fmt(r.during.p50)} ms  p99 before ${fmt(r.before.p99)} / during ${fmt(r.during.p99)} ms`);
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-reshard-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, nodes: 4, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
};
/** The control plane's own counters (its /metrics): reconcile passes, API requests, metric rows written. */
const controlPlaneActivity = async (): Promise<Record<string, number>> => {
  const res = await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${readFileSync(path.join(dir, 'metrics-token'), 'utf8').trim()}` } });
  const text = await res.text();
  const sum = (re: RegExp) => text.split('\n').filter((l) => re.test(l)).reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  const routes: Record<string, number> = {};
  for (const m of text.matchAll(/^strata_http_request_duration_seconds_count\{method="(\w+)",route="([^"]+)"[^}]*\} (\d+)/gm)) {
    routes[`${m[1]} ${m[2]}`] = (routes[`${m[1]} ${m[2]}`] ?? 0) + Number(m[3]);
  }
  return {
    'reconcile passes': sum(/^strata_reconcile_passes_total\{/),
    'API requests': sum(/^strata_http_request_duration_seconds_count\{/),
    ...routes,
    'CPU s': sum(/^strata_control_plane_process_cpu_seconds_total /),
  };
};
const hand: ChildProcess[] = [];
// Interrupted (Ctrl-C, a timeout): the hand-made engines (sessions of their own, so not reached by the terminal's signal) go too.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const p of hand) p.kill('SIGKILL');
    process.exit(130);
  });
}
console.log(`load average at start (1 / 5 / 15 min): ${loadAverage()}; ${os.cpus().length} cores; ${KEYS.toLocaleString()} keys; Strata at ${PRIORITY} priority`);
try {
  // --- Strata ---
  const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'bench', shards: 3, replicasPerShard: 0, memoryMbPerShard: 512, migrationPriority: PRIORITY });
  const id = created.cluster.id;
  for (;;) {
    const c = await api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`);
    if (c.status.phase === 'ready') break;
    await sleep(200);
  }
  const conn = await api<Connection>('GET', `/v1/clusters/${id}/connection`);
  const auth = { username: conn.username, password: conn.password };
  let t = performance.now();
  await load(client(conn.seeds, auth));
  console.log(`strata: loaded ${KEYS.toLocaleString()} keys in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const sl = new Load(client(conn.seeds, auth, false)).start();
  // The end comes from the live event stream, as the console sees it (polling 20 times a second cost the control plane more than the change did).
  const live = await LiveStreamClient.open(stack.url, { authorization: `Bearer ${stack.adminToken}` });
  for (const [change, shards] of [['3->4', 4], ['4->3', 3]] as const) {
    sl.phase = `before ${change}`;
    await sleep(3000);
    const cpBefore = await controlPlaneActivity();
    const cpu = cpuMeter({
      engines: () => enginePids(PREFIX), agents: () => stack.agents.map((a) => a.proc?.child.pid ?? 0).filter(Boolean),
      'control plane': () => stack.controlPlanes.map((c) => c.proc?.child.pid ?? 0).filter(Boolean), 'this bench (the client)': () => [process.pid],
    });
    sl.phase = `during ${change}`;
    t = performance.now();
    const wallStart = Date.now();
    const accepted = await api<{ operation: Operation }>('PATCH', `/v1/clusters/${id}`, { shards });
    const ended = (e: LiveEvent): e is LiveEvent & { type: 'operation' } => e.type === 'operation' && e.operation.id === accepted.operation.id && ['succeeded', 'failed', 'cancelled'].includes(e.operation.state);
    await live.waitFor(ended, 300_000);
    const ms = performance.now() - t;
    sl.phase = `after ${change}`;
    console.log(`strata ${change}: CPU ms during the change (${Math.round(ms)} ms): ${cpu()}`);
    const op = await api<Operation>('GET', `/v1/operations/${accepted.operation.id}`);
    const cpAfter = await controlPlaneActivity();
    const mig = op.steps.find((st) => st.name === 'migrate-slots');
    const migMs = mig?.startedAt && mig.finishedAt ? Date.parse(mig.finishedAt) - Date.parse(mig.startedAt) : NaN;
    const moved = op.migration?.keysMoved ?? 0;
    if (process.env.TIMELINE) timeline(sl, t, t + ms, op.steps.map((st) => ({ name: st.name, at: st.startedAt ? Date.parse(st.startedAt) - wallStart : NaN })));
    console.log(`strata ${change}: operation ${op.state}; ${op.migration?.slotsDone} slots, ${moved.toLocaleString()} keys moved; steps ${op.steps.map((st) => `${st.name} ${st.startedAt && st.finishedAt ? ((Date.parse(st.finishedAt) - Date.parse(st.startedAt)) / 1000).toFixed(2) : '?'} s`).join(', ')}`);
    console.log(`strata ${change}: control plane during the change: ${Object.entries(cpAfter).map(([k, v]) => [k, Math.round(v - (cpBefore[k] ?? 0))] as const).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const keys = await countKeys(client((await api<Connection>('GET', `/v1/clusters/${id}/connection`)).seeds, auth));
    record({ tool: 'strata', change, ms, moved, errors: sl.errors, commands: sl.of(`during ${change}`).n, lost: KEYS - keys.present, before: sl.of(`before ${change}`), during: sl.of(`during ${change}`) });
    if (Number.isFinite(migMs)) console.log(`strata ${change}: migrate-slots step ${(migMs / 1000).toFixed(2)} s of ${(ms / 1000).toFixed(2)} s`);
  }
  live.close();
  await sl.end();
  await api('DELETE', `/v1/clusters/${id}`);

  // --- redis-cli on a hand-made identical cluster ---
  const hdir = path.join(dir, 'hand');
  const ports = [7100, 7101, 7102, 7103];
  for (const p of ports) {
    const d = path.join(hdir, String(p));
    mkdirSync(d, { recursive: true });
    // The same redis.conf Strata renders for its instances (users, cluster settings, no persistence, 512 MB).
    writeFileSync(path.join(d, 'redis.conf'), renderRedisConfig({ address: HAND, port: p, dataDir: '.', memoryMb: 512, durability: 'none', evictionPolicy: 'noeviction', credentials: CREDS }));
    // In a session of its own like the managed engines (with autogroup scheduling, sharing the load client's
    // session would schedule it as one group with the client).
    hand.push(spawn('redis-server', ['redis.conf'], { cwd: d, stdio: 'ignore', detached: true }));
  }
  await sleep(300);
  const cli = (...args: string[]) => {
    const r = spawnSync('redis-cli', ['--user', CREDS.internalUser, '--pass', CREDS.internalPassword, '--no-auth-warning', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  /** redis-cli --cluster ... run asynchronously: the load client keeps running (and measuring) meanwhile. */
  const cliAsync = (...args: string[]) => new Promise<void>((resolve, reject) => {
    const p = spawn('redis-cli', ['--user', CREDS.internalUser, '--pass', CREDS.internalPassword, '--no-auth-warning', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    p.on('exit', (status) => (status === 0 ? resolve() : reject(new Error(`redis-cli ${args.slice(0, 2).join(' ')} exited ${status}: ${stderr.slice(-500)}`))));
  });
  const waitOk = async (p: number) => {
    while (!cli('-h', HAND, '-p', String(p), 'CLUSTER', 'INFO').includes('cluster_state:ok')) await sleep(20);
  };
  cli('--cluster', 'create', ...ports.slice(0, 3).map((p) => `${HAND}:${p}`), '--cluster-replicas', '0', '--cluster-yes');
  for (const p of ports.slice(0, 3)) await waitOk(p);
  const handAuth = { username: CREDS.customerUser, password: CREDS.customerPassword };
  t = performance.now();
  await load(client(ports.slice(0, 3).map((p) => `${HAND}:${p}`), handAuth));
  console.log(`redis-cli: loaded ${KEYS.toLocaleString()} keys in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const hl = new Load(client(ports.slice(0, 3).map((p) => `${HAND}:${p}`), handAuth, false)).start();
  const fourth = cli('-h', HAND, '-p', '7103', 'CLUSTER', 'MYID').trim();
  for (const change of ['3->4', '4->3'] as const) {
    hl.phase = `before ${change}`;
    await sleep(3000);
    const cpu = cpuMeter({ engines: () => enginePids(HAND.split('.').slice(0, 3).join('.')), 'this bench (the client) and redis-cli': () => [process.pid] });
    hl.phase = `during ${change}`;
    t = performance.now();
    let moved: number;
    if (change === '3->4') {
      // Joining the empty primary is part of going 3 -> 4 (Strata's time includes its join-instances step).
      await cliAsync('--cluster', 'add-node', `${HAND}:7103`, `${HAND}:7100`);
      await waitOk(7103);
      await cliAsync('--cluster', 'rebalance', `${HAND}:7100`, '--cluster-use-empty-masters', '--cluster-pipeline', '100');
      moved = Number(cli('-h', HAND, '-p', '7103', 'DBSIZE').trim());
    } else {
      // Emptying the 4th primary and removing it (Strata's time includes its remove-instances step).
      moved = Number(cli('-h', HAND, '-p', '7103', 'DBSIZE').trim());
      await cliAsync('--cluster', 'rebalance', `${HAND}:7100`, '--cluster-weight', `${fourth}=0`, '--cluster-pipeline', '100');
      await cliAsync('--cluster', 'del-node', `${HAND}:7100`, fourth);
    }
    const ms = performance.now() - t;
    hl.phase = `after ${change}`;
    console.log(`redis-cli ${change}: CPU ms during the change (${Math.round(ms)} ms): ${cpu()}`);
    const keys = await countKeys(client(ports.slice(0, 3).map((p) => `${HAND}:${p}`), handAuth));
    record({ tool: 'redis-cli', change, ms, moved, errors: hl.errors, commands: hl.of(`during ${change}`).n, lost: KEYS - keys.present, before: hl.of(`before ${change}`), during: hl.of(`during ${change}`) });
  }
  await hl.end();

  console.log(`\nload average at end (1 / 5 / 15 min): ${loadAverage()}`);
  for (const change of ['3->4', '4->3']) {
    const s = results.find((r) => r.tool === 'strata' && r.change === change)!;
    const c = results.find((r) => r.tool === 'redis-cli' && r.change === change)!;
    const ratio = c.ms / s.ms;
    const goals = [
      [`p99 during <= 2x before (${fmt(s.during.p99)} <= ${fmt(2 * s.before.p99)} ms)`, s.during.p99 <= 2 * s.before.p99],
      [`p99 during <= redis-cli's (${fmt(s.during.p99)} <= ${fmt(c.during.p99)} ms)`, s.during.p99 <= c.during.p99],
      [`>= 3x faster than redis-cli (${ratio.toFixed(2)}x)`, ratio >= 3],
      [`0 lost (${s.lost})`, s.lost === 0],
    ] as const;
    console.log(`${change}: strata ${(s.ms / 1000).toFixed(2)} s vs redis-cli ${(c.ms / 1000).toFixed(2)} s = ${ratio.toFixed(2)}x; ${goals.map(([g, ok]) => `${ok ? 'met' : 'NOT met'}: ${g}`).join('; ')}`);
  }
  process.exitCode = 0;
} finally {
  for (const p of hand) p.kill('SIGKILL');
  await stack.stop();
  if (process.env.KEEP_DIR) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  process.exit();
}
