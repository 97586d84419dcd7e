/**
 * Benchmark: time from POST /v1/clusters to phase "ready" for 3x1 and 8x1
 * clusters (median of 5), against the reference `redis-cli --cluster create`
 * on the same machine in the same run. Prints figures; asserts nothing.
 *
 *   npm run bench:provision            (RUNS=5 by default)
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { renderRedisConfig } from '@strata/engine';
import { startStack } from '../src/stack';

const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function strataRuns(shards: number, url: string, token: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(...(await strataRunsOnce(shards, url, token, run)));
  return times;
}

async function strataRunsOnce(shards: number, url: string, token: string, runNo: number): Promise<number[]> {
  const h = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (const run of [runNo]) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/clusters`, { method: 'POST', headers: h, body: JSON.stringify({ name: `bench-${shards}x1-${run}`, shards, replicasPerShard: 1, memoryMbPerShard: 64 }) });
    if (res.status !== 202) throw new Error(`create failed: ${res.status} ${await res.text()}`);
    const { cluster } = (await res.json()) as { cluster: { id: string } };
    for (;;) {
      const c = (await (await fetch(`${url}/v1/clusters/${cluster.id}`, { headers: h })).json()) as { status: { phase: string } };
      if (c.status.phase === 'ready') break;
      if (c.status.phase === 'failed') throw new Error('cluster failed');
      await sleep(5);
    }
    times.push(performance.now() - t0);
    await fetch(`${url}/v1/clusters/${cluster.id}`, { method: 'DELETE', headers: h });
    while ((await fetch(`${url}/v1/clusters/${cluster.id}`, { headers: h })).status !== 404) await sleep(20);
  }
  return times;
}

/** Reference: spawn the same number of redis-server processes, then `redis-cli --cluster create` until cluster_state:ok everywhere. */
async function referenceRuns(shards: number): Promise<number[]> {
  const times: number[] = [];
  const creds = { customerUser: 'app', customerPassword: 'bench-customer-pw', internalUser: 'strata-internal', internalPassword: 'benchinternal' };
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-ref-'));
    const procs: ChildProcess[] = [];
    const addrs: string[] = [];
    try {
      const t0 = performance.now();
      for (let i = 0; i < shards * 2; i++) {
        const host = `127.0.21.${(i % 3) + 1}`;
        const port = 7500 + i;
        const d = path.join(dir, String(i));
        mkdirSync(d);
        writeFileSync(path.join(d, 'redis.conf'), renderRedisConfig({ address: host, port, dataDir: d, memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction', credentials: creds }));
        procs.push(spawn('redis-server', [path.join(d, 'redis.conf')], { stdio: 'ignore' }));
        addrs.push(`${host}:${port}`);
      }
      for (const a of addrs) {
        const [h, p] = a.split(':');
        while (spawnSync('redis-cli', ['-h', h!, '-p', p!, '--user', creds.internalUser, '--pass', creds.internalPassword, '--no-auth-warning', 'PING']).stdout?.toString().trim() !== 'PONG') await sleep(5);
      }
      const r = spawnSync('redis-cli', ['--user', creds.internalUser, '--pass', creds.internalPassword, '--no-auth-warning', '--cluster', 'create', ...addrs, '--cluster-replicas', '1', '--cluster-yes'], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`redis-cli --cluster create failed: ${r.stdout}${r.stderr}`);
      for (const a of addrs) {
        const [h, p] = a.split(':');
        while (!spawnSync('redis-cli', ['-h', h!, '-p', p!, '--user', creds.internalUser, '--pass', creds.internalPassword, '--no-auth-warning', 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok')) await sleep(5);
      }
      times.push(performance.now() - t0);
    } finally {
      for (const p of procs) p.kill('SIGKILL');
      await sleep(100);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return times;
}

const fmt = (xs: number[]) => `${median(xs).toFixed(0).padStart(5)} (${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)})`.padEnd(20);

/** One stack per spare setting: warm spares (the default) and none (every engine cold-started). */
async function withStack<T>(spares: number, fn: (url: string, token: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-'));
  const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.20', port: 0, nodes: 3, nodeMemoryMb: 4096, agentEnv: { STRATA_AGENT_SPARES: String(spares) } });
  try {
    return await fn(stack.url, stack.adminToken);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs are spaced so that spares used by one run are warm again for the next. */
const SPACING_MS = Number(process.env.SPACING_MS ?? 3000);

console.log(`POST -> ready, median (min..max) of ${RUNS} runs, ${os.cpus().length} cores, redis ${spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1]}`);
console.log('topology  strata, warm spares    strata, cold start     redis-cli --cluster create   warm/reference  cold/reference');
const rows: Record<number, { warm: number[]; cold: number[]; ref: number[] }> = {};
for (const shards of [3, 8]) rows[shards] = { warm: [], cold: [], ref: [] };
await withStack(4, async (url, token) => {
  await sleep(3000);
  for (const shards of [3, 8]) {
    for (let i = 0; i < RUNS; i++) {
      rows[shards]!.warm.push(...(await strataRunsOnce(shards, url, token, i)));
      await sleep(SPACING_MS);
    }
  }
});
await withStack(0, async (url, token) => {
  for (const shards of [3, 8]) rows[shards]!.cold = await strataRuns(shards, url, token);
});
for (const shards of [3, 8]) rows[shards]!.ref = await referenceRuns(shards);
for (const shards of [3, 8]) {
  const { warm, cold, ref } = rows[shards]!;
  console.log(`${shards}x1       ${fmt(warm)}   ${fmt(cold)}   ${fmt(ref)}         ${(median(warm) / median(ref)).toFixed(2)}x           ${(median(cold) / median(ref)).toFixed(2)}x`);
}
