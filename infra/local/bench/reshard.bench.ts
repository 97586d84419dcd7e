/**
 * Resharding benchmark: 3 -> 4 shards holding KEYS keys (default 1,000,000)
 * under a client load, through Strata's PATCH (live slot migration by the
 * agent), and in the same run `redis-cli --cluster rebalance
 * --cluster-use-empty-masters --cluster-pipeline 100` on an identical
 * hand-made cluster (3 loaded primaries + 1 empty one, no replicas, same
 * redis-server). Prints time, keys/s, client errors, keys lost, and the
 * client's p99 before vs during the migration, and three ratios: the whole
 * 3 -> 4 (Strata's operation vs redis-cli's add-node + rebalance), Strata's
 * whole operation vs the rebalance alone, and slot migration vs rebalance.
 * Asserts nothing.
 *
 *   npm run bench:reshard            (KEYS=1000000)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from 'ioredis';
import type { Connection, LiveEvent, Operation } from '@strata/api';
import { renderRedisConfig } from '@strata/engine';
import { startStack } from '../src/stack';
import { LiveStreamClient } from '@strata/control-plane/testing';

const KEYS = Number(process.env.KEYS ?? 1_000_000);
const PREFIX = '127.0.63';
const HAND = '127.0.64.1';
const CREDS = { customerUser: 'app', customerPassword: 'bench-app-pass', internalUser: 'strata-internal', internalPassword: 'bench-internal-pass' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]! : NaN);

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

/** 8 workers: SET or GET a random loaded key, one command at a time each; latencies tagged by phase. */
class Load {
  phase: 'before' | 'during' | 'after' = 'before';
  readonly lat: Record<string, number[]> = { before: [], during: [], after: [] };
  errors = 0;
  readonly samples: string[] = [];
  private stop = false;
  private loops: Promise<void>[] = [];
  constructor(private readonly c: Cluster) {}
  start(): this {
    for (let w = 0; w < 8; w++) this.loops.push((async () => {
      for (let n = 0; !this.stop; n++) {
        const i = Math.floor(Math.random() * KEYS);
        const t = performance.now();
        try {
          if (n % 2) await this.c.set(`k:${i}`, `v${i}`);
          else await this.c.get(`k:${i}`);
          this.lat[this.phase]!.push(performance.now() - t);
        } catch (err) {
          this.errors++;
          if (this.samples.length < 3) this.samples.push((err as Error).message.slice(0, 120));
        }
      }
    })());
    return this;
  }
  async end(): Promise<void> {
    this.stop = true;
    await Promise.all(this.loops);
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

const report = (name: string, ms: number, moved: number, l: Load, keys: { present: number; total: number }) => {
  console.log(`${name.padEnd(28)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${Math.round(moved / (ms / 1000)).toLocaleString().padStart(9)} keys/s  errors ${l.errors}  keys ${keys.present.toLocaleString()}/${KEYS.toLocaleString()} (lost ${KEYS - keys.present}, dbsize ${keys.total})  p99 before ${p99(l.lat.before!).toFixed(2)} ms, during ${p99(l.lat.during!).toFixed(2)} ms${l.samples.length ? `  (errors: ${l.samples.join(' | ')})` : ''}`);
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-reshard-bench-'));
const stack = await startStack({ dir, addressPrefix: PREFIX, port: 0, nodes: 4, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
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
const results: string[] = [];
try {
  // --- Strata ---
  const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'bench', shards: 3, replicasPerShard: 0, memoryMbPerShard: 512 });
  const id = created.cluster.id;
  for (;;) {
    const c = await api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`);
    if (c.status.phase === 'ready') break;
    await sleep(200);
  }
  const conn = await api<Connection>('GET', `/v1/clusters/${id}/connection`);
  const auth = { username: conn.username, password: conn.password };
  const sc = client(conn.seeds, auth);
  let t = performance.now();
  await load(sc);
  console.log(`strata: loaded ${KEYS.toLocaleString()} keys in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const sl = new Load(client(conn.seeds, auth, false)).start();
  await sleep(3000);
  sl.phase = 'during';
  const cpBefore = await controlPlaneActivity();
  // The end comes from the live event stream, as the console sees it (polling 20 times a second cost the control plane more than the change did).
  const live = await LiveStreamClient.open(stack.url, { authorization: `Bearer ${stack.adminToken}` });
  t = performance.now();
  const accepted = await api<{ operation: Operation }>('PATCH', `/v1/clusters/${id}`, { shards: 4 });
  const ended = (e: LiveEvent): e is LiveEvent & { type: 'operation' } => e.type === 'operation' && e.operation.id === accepted.operation.id && ['succeeded', 'failed', 'cancelled'].includes(e.operation.state);
  await live.waitFor(ended, 300_000);
  const strataMs = performance.now() - t;
  live.close();
  const op = await api<Operation>('GET', `/v1/operations/${accepted.operation.id}`);
  const cpAfter = await controlPlaneActivity();
  sl.phase = 'after';
  await sleep(500);
  await sl.end();
  const mig = op.steps.find((s) => s.name === 'migrate-slots');
  const migMs = mig?.startedAt && mig.finishedAt ? Date.parse(mig.finishedAt) - Date.parse(mig.startedAt) : NaN;
  const sKeys = await countKeys(client((await api<Connection>('GET', `/v1/clusters/${id}/connection`)).seeds, auth));
  const moved = op.migration?.keysMoved ?? 0;
  console.log(`strata: operation ${op.state}; ${op.migration?.slotsDone} slots, ${moved.toLocaleString()} keys moved; migrate-slots step ${(migMs / 1000).toFixed(2)} s of ${(strataMs / 1000).toFixed(2)} s in all`);
  console.log(`strata: steps ${op.steps.map((st) => `${st.name} ${st.startedAt && st.finishedAt ? ((Date.parse(st.finishedAt) - Date.parse(st.startedAt)) / 1000).toFixed(2) : '?'} s`).join(', ')}`);
  console.log(`strata: control plane during the change: ${Object.entries(cpAfter).map(([k, v]) => [k, Math.round(v - (cpBefore[k] ?? 0))] as const).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  report('strata PATCH shards 3->4', strataMs, moved, sl, sKeys);
  results.push(`strata ${strataMs}`);
  await api('DELETE', `/v1/clusters/${id}`);

  // --- redis-cli on a hand-made identical cluster ---
  const hdir = path.join(dir, 'hand');
  const ports = [7100, 7101, 7102, 7103];
  for (const p of ports) {
    const d = path.join(hdir, String(p));
    mkdirSync(d, { recursive: true });
    // The same redis.conf Strata renders for its instances (users, cluster settings, no persistence, 512 MB).
    writeFileSync(path.join(d, 'redis.conf'), renderRedisConfig({ address: HAND, port: p, dataDir: '.', memoryMb: 512, durability: 'none', evictionPolicy: 'noeviction', credentials: CREDS }));
    hand.push(spawn('redis-server', ['redis.conf'], { cwd: d, stdio: 'ignore' }));
  }
  await sleep(300);
  const cli = (...args: string[]) => {
    const r = spawnSync('redis-cli', ['--user', CREDS.internalUser, '--pass', CREDS.internalPassword, '--no-auth-warning', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  cli('--cluster', 'create', ...ports.slice(0, 3).map((p) => `${HAND}:${p}`), '--cluster-replicas', '0', '--cluster-yes');
  for (;;) {
    if (ports.slice(0, 3).every((p) => cli('-h', HAND, '-p', String(p), 'CLUSTER', 'INFO').includes('cluster_state:ok'))) break;
    await sleep(100);
  }
  const handAuth = { username: CREDS.customerUser, password: CREDS.customerPassword };
  const hc = client(ports.slice(0, 3).map((p) => `${HAND}:${p}`), handAuth);
  t = performance.now();
  await load(hc);
  console.log(`redis-cli: loaded ${KEYS.toLocaleString()} keys in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // Joining the empty primary is part of going 3 -> 4 with redis-cli too (Strata's time includes its join-instances step).
  t = performance.now();
  cli('--cluster', 'add-node', `${HAND}:7103`, `${HAND}:7100`);
  for (;;) {
    if (cli('-h', HAND, '-p', '7103', 'CLUSTER', 'INFO').includes('cluster_state:ok')) break;
    await sleep(20);
  }
  const addNodeMs = performance.now() - t;
  const hl = new Load(client(ports.map((p) => `${HAND}:${p}`), handAuth, false)).start();
  await sleep(3000);
  hl.phase = 'during';
  t = performance.now();
  // Async: the load client keeps running (and measuring) while redis-cli works.
  const rb = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const p = spawn('redis-cli', ['--user', CREDS.internalUser, '--pass', CREDS.internalPassword, '--no-auth-warning', '--cluster', 'rebalance', `${HAND}:7100`, '--cluster-use-empty-masters', '--cluster-pipeline', '100'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    p.on('exit', (status) => resolve({ status, stderr }));
  });
  const cliMs = performance.now() - t;
  hl.phase = 'after';
  await sleep(500);
  await hl.end();
  if (rb.status !== 0) console.log(`redis-cli rebalance exited ${rb.status}: ${rb.stderr.slice(-500)}`);
  const hKeys = await countKeys(client(ports.map((p) => `${HAND}:${p}`), handAuth));
  const handMoved = Number(cli('-h', HAND, '-p', '7103', 'DBSIZE').trim());
  report('redis-cli --cluster rebalance', cliMs, handMoved, hl, hKeys);
  console.log(`redis-cli --cluster add-node ${(addNodeMs / 1000).toFixed(2)} s (until the new primary says cluster_state:ok), before the rebalance`);
  console.log(`\nstrata vs redis-cli, whole 3 -> 4: ${((addNodeMs + cliMs) / strataMs).toFixed(2)}x faster (Strata: start + join + migrate; redis-cli: add-node + rebalance)`);
  console.log(`strata's whole operation vs redis-cli's rebalance alone: ${(cliMs / strataMs).toFixed(2)}x`);
  if (Number.isFinite(migMs)) console.log(`slot migration alone: ${(cliMs / migMs).toFixed(2)}x faster than redis-cli's rebalance`);
  process.exitCode = 0;
} finally {
  for (const p of hand) p.kill('SIGKILL');
  await stack.stop();
  if (process.env.KEEP_DIR) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  process.exit();
}
