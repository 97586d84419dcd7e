/**
 * Built-in `getset` load generator vs redis-benchmark on the same 3-primary
 * cluster, same connections, value size, key range and pipeline depth (P1
 * and P16), in one run. Prints both throughputs and our/theirs ratio (goal
 * >= 0.8). redis-benchmark runs SET then GET; its combined rate is
 * 2 / (1/set + 1/get), the rate of a 1:1 mix.
 *
 * Each depth runs BENCH_ROUNDS rounds of ours then redis-benchmark, back
 * to back (this machine's speed drifts by 10-20% within minutes), and
 * prints every round's ratio and their median.
 *
 *   npm run bench:getset            (BENCH_SECONDS=10 BENCH_CONNECTIONS=50 BENCH_THREADS=1 BENCH_ROUNDS=3)
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { LoadGenerator } from '@strata/bench/loadgen';
import { decodeHistogram, summarize } from '@strata/bench';
import { startBenchCluster } from '@strata/bench/testing';
import { loopbackAddress } from '../src/loopback';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYS = 100_000;
const VALUE = 100;

const HOST = process.env.BENCH_HOST ?? loopbackAddress('127.0.42.1');
const cluster = await startBenchCluster(HOST, 3, 7300, 512);
console.log(`3 primaries on ${HOST}:7300-7302, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`connections ${CONNECTIONS}, value ${VALUE} B, key range ${KEYS}, SET:GET 1:1, ${SECONDS} s per run; ours: ${THREADS} worker thread(s)\n`);
const rows: string[] = [];
try {
  for (const pipeline of [1, 16]) {
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const g = await LoadGenerator.start({
        threads: THREADS, connections: CONNECTIONS, pipeline, seeds: cluster.seeds, auth: cluster.customer, workload: 'getset',
        recordCount: KEYS, seed: 1, valueSize: VALUE, ratio: '1:1', keyPattern: 'uniform',
      });
      let ours: number;
      let oursP99 = 0;
      let cpu = 0;
      try {
        if (pipeline === 1 && round === 1) await g.load(0, KEYS);
        const s = await g.run({ startAtMs: Date.now() + 200, warmupSec: 1, durationSec: SECONDS });
        const total = s.ops.reduce((a, o) => a + o.count, 0);
        ours = total / ((s.steadyEndMs - s.steadyStartMs) / 1000);
        oursP99 = Math.max(...s.ops.map((o) => summarize(decodeHistogram(o.service)).p99));
        cpu = s.maxElu;
        if (s.ops.some((o) => o.errors > 0 || o.misses > 0)) console.log('  ours: errors or misses!', s.firstError);
      } finally {
        await g.close();
    }
    const n = String(Math.max(50_000, Math.round((ours * SECONDS) / 2)));
    const csv = execFileSync('redis-benchmark', [
      '-h', HOST, '-p', '7300', '--user', cluster.customer.username, '-a', cluster.customer.password, '--cluster',
      '--threads', String(THREADS), '-c', String(CONNECTIONS), '-P', String(pipeline), '-d', String(VALUE), '-r', String(KEYS), '-n', n, '-t', 'set,get', '--csv',
    ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const rps = Object.fromEntries(csv.split('\n').filter((l) => /^"(SET|GET)"/.test(l)).map((l) => { const c = l.split(','); return [c[0]!.replace(/"/g, ''), Number(c[1]!.replace(/"/g, ''))]; }));
    const theirs = 2 / (1 / rps.SET! + 1 / rps.GET!);
    ratios.push(ours / theirs);
    const row = `P${pipeline} round ${round}: getset ${Math.round(ours).toLocaleString('en')} ops/s (p99 ${(oursP99 / 1000).toFixed(2)} ms, busiest thread ${Math.round(cpu * 100)}%)  redis-benchmark SET ${Math.round(rps.SET!).toLocaleString('en')} GET ${Math.round(rps.GET!).toLocaleString('en')} -> 1:1 ${Math.round(theirs).toLocaleString('en')} ops/s  ratio ${(ours / theirs).toFixed(2)} (goal >= 0.8)`;
    console.log(row);
    rows.push(row);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const summary = `P${pipeline}: median ratio ${median.toFixed(2)} of ${ratios.map((r) => r.toFixed(2)).join(', ')} (goal >= 0.8${median >= 0.8 ? ', met' : ', not met'})\n`;
    console.log(summary);
    rows.push(summary);
  }
} finally {
  await cluster.stop();
}
