/**
 * What being managed costs: the same load generator against a Strata cluster
 * (control plane, agents sampling every engine each second, metrics pushed,
 * stable endpoints, PostgreSQL, all running) and against a hand-made Redis
 * Cluster of the same shape (3 shards x 1 replica, same memory, no
 * persistence, an ACL user, formed with `redis-cli --cluster create`)
 * running alone. Prints each round's throughput and p99 for both, the
 * ratio managed / hand-made and its median (goal >= 0.97).
 *
 * Rounds alternate which cluster runs first (this machine's speed drifts by
 * 10-20% within minutes); both clusters exist for the whole run, so each
 * measurement sees the same background.
 *
 *   npm run bench:managed     (BENCH_RECORDS=100000 BENCH_SECONDS=10 BENCH_CONNECTIONS=16 BENCH_ROUNDS=4)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster as ClusterT, Connection } from '@strata/api';
import { decodeHistogram, summarize } from '@strata/bench';
import { LoadGenerator } from '@strata/bench/loadgen';
import { loopbackAddress } from '../src/loopback';
import { startStack } from '../src/stack';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const MEMORY_MB = 256;
const HAND_HOST = loopbackAddress('127.0.89.1');
const HAND_PORT = 7400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Target { seeds: string[]; auth: { username: string; password: string } }
interface Figures { opsPerSec: number; p99Ms: number; cpu: number }

const handProcs: ChildProcess[] = [];

/** Six redis-server processes as an operator would configure them by hand, formed with redis-cli. */
async function startHandMade(dir: string): Promise<{ target: Target; stop(): Promise<void> }> {
  const auth = { username: 'app', password: 'hand-made-bench-password' };
  const procs = handProcs;
  const stop = async () => {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.exitCode !== null || p.signalCode !== null ? undefined : new Promise((r) => p.once('exit', r)))));
  };
  try {
    for (let i = 0; i < 6; i++) {
      const port = HAND_PORT + i;
      const d = path.join(dir, String(port));
      mkdirSync(d, { recursive: true });
      const conf = [
        `port ${port}`, `bind ${HAND_HOST}`, `dir ${d}`, 'cluster-enabled yes', 'cluster-config-file nodes.conf', `cluster-announce-ip ${HAND_HOST}`, 'cluster-node-timeout 5000',
        'appendonly no', 'save ""', `maxmemory ${MEMORY_MB}mb`, 'maxmemory-policy noeviction', 'daemonize no', 'logfile redis.log',
        `user default on nopass ~* &* +@all`, `user ${auth.username} on >${auth.password} ~* &* +@all`,
      ].join('\n');
      writeFileSync(path.join(d, 'redis.conf'), conf + '\n');
      // Each in a session of its own, as a daemonized or service-managed redis-server runs (and as agents start the
      // managed engines): with the kernel's autogroup scheduling, processes sharing the benchmark client's session
      // are scheduled as one group with it, which favours their request-reply round trips.
      procs.push(spawn('redis-server', [path.join(d, 'redis.conf')], { cwd: d, stdio: 'ignore', detached: true }));
    }
    const addrs = Array.from({ length: 6 }, (_, i) => `${HAND_HOST}:${HAND_PORT + i}`);
    for (const a of addrs) {
      const [h, p] = a.split(':');
      for (let t = 0; ; t++) {
        try { execFileSync('redis-cli', ['-h', h!, '-p', p!, 'ping'], { stdio: 'ignore' }); break; } catch { if (t > 100) throw new Error(`${a} did not start`); await sleep(50); }
      }
    }
    execFileSync('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '1', '--cluster-yes'], { stdio: 'ignore' });
    for (let t = 0; ; t++) {
      const info = execFileSync('redis-cli', ['-h', HAND_HOST, '-p', String(HAND_PORT), 'cluster', 'info'], { encoding: 'utf8' });
      if (info.includes('cluster_state:ok')) break;
      if (t > 200) throw new Error('hand-made cluster did not reach cluster_state:ok');
      await sleep(50);
    }
    return { target: { seeds: addrs.slice(0, 3), auth }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function load(t: Target): Promise<void> {
  const g = await LoadGenerator.start({ threads: 1, connections: 32, pipeline: 16, seeds: t.seeds, auth: t.auth, workload: 'ycsb-a', recordCount: RECORDS, seed: 7, valueSize: 100, ratio: '1:1', keyPattern: 'uniform', engine: 'js' });
  try {
    const r = await g.load(0, RECORDS);
    if (r.errors) throw new Error(`load failed: ${r.firstError}`);
  } finally {
    await g.close();
  }
}

async function measure(t: Target, workload: 'ycsb-a' | 'ycsb-c' | 'getset'): Promise<Figures> {
  const g = await LoadGenerator.start({
    threads: 1, connections: CONNECTIONS, pipeline: workload === 'getset' ? 16 : 1, seeds: t.seeds, auth: t.auth, workload,
    recordCount: RECORDS, seed: 11, valueSize: 100, ratio: '1:1', keyPattern: 'uniform',
  });
  try {
    const s = await g.run({ startAtMs: Date.now() + 200, warmupSec: 2, durationSec: SECONDS });
    if (s.ops.some((o) => o.errors > 0)) console.log('  errors!', s.firstError);
    const total = s.ops.reduce((a, o) => a + o.count, 0);
    return {
      opsPerSec: total / ((s.steadyEndMs - s.steadyStartMs) / 1000),
      p99Ms: Math.max(...s.ops.map((o) => summarize(decodeHistogram(o.service)).p99)) / 1000,
      cpu: s.maxElu,
    };
  } finally {
    await g.close();
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-managed-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.29', port: 0, nodes: 3, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: 'warn' } });
let hand: Awaited<ReturnType<typeof startHandMade>> | undefined;
// Interrupted (Ctrl-C, a timeout): nothing this run started is left behind.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    stack.kill();
    for (const p of handProcs) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return (await res.json()) as T;
  };
  const { cluster } = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'managed', shards: 3, replicasPerShard: 1, memoryMbPerShard: MEMORY_MB, durability: 'none' });
  for (let t = 0; (await api<ClusterT>('GET', `/v1/clusters/${cluster.id}`)).status.phase !== 'ready'; t++) {
    if (t > 600) throw new Error('the managed cluster did not become ready');
    await sleep(100);
  }
  const conn = await api<Connection>('GET', `/v1/clusters/${cluster.id}/connection`);
  const managed: Target = { seeds: conn.seeds, auth: { username: conn.username, password: conn.password } };
  hand = await startHandMade(path.join(dir, 'hand-made'));
  await load(managed);
  await load(hand.target);
  const redis = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=(\S+)/)?.[1];
  console.log(`3 shards x 1 replica, ${MEMORY_MB} MB each, durability none, redis ${redis}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`managed: Strata (control plane, 3 agents, PostgreSQL running); hand-made: redis-server x6 + redis-cli --cluster create, nothing else`);
  console.log(`${RECORDS.toLocaleString('en')} records, ${CONNECTIONS} connections, ${SECONDS} s measured after 2 s warm-up, same load generator for both\n`);
  const fmt = (f: Figures) => `${Math.round(f.opsPerSec).toLocaleString('en')} ops/s p99 ${f.p99Ms.toFixed(2)} ms`;
  for (const workload of ['ycsb-c', 'ycsb-a', 'getset'] as const) {
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const managedFirst = round % 2 === 1;
      const first = await measure(managedFirst ? managed : hand.target, workload);
      const second = await measure(managedFirst ? hand.target : managed, workload);
      const [m, h] = managedFirst ? [first, second] : [second, first];
      ratios.push(m.opsPerSec / h.opsPerSec);
      console.log(`${workload}${workload === 'getset' ? ' P16' : ''} round ${round} (${managedFirst ? 'managed' : 'hand-made'} first): managed ${fmt(m)}  hand-made ${fmt(h)}  ratio ${(m.opsPerSec / h.opsPerSec).toFixed(3)}`);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    console.log(`${workload}: median ratio ${median.toFixed(3)} of ${ratios.map((r) => r.toFixed(3)).join(', ')} (goal >= 0.97${median >= 0.97 ? ', met' : ', not met'})\n`);
  }
} finally {
  await hand?.stop();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
