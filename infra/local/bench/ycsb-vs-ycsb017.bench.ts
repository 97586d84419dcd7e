/**
 * Built-in YCSB C and A vs YCSB 0.17 itself on the same 3-primary cluster,
 * same records (loaded once by our loader: YCSB's keys and record format),
 * same number of concurrent clients (our connections = YCSB's threads, one
 * request in flight each), same zipfian, closed loop. YCSB is Maven
 * Central's site.ycsb:core 0.17.0 with `ycsb/` (a small binding issuing the
 * stock Redis binding's commands through Jedis's cluster client, with an ACL
 * user, without the `_indices` key). Prints throughput and p95 per op and
 * the ratio (goal: 1.5x YCSB's throughput, same p95 or better).
 *
 * Each workload runs BENCH_ROUNDS rounds of ours then YCSB, back to back
 * (this machine's speed drifts by 10-40% within minutes), and prints every
 * round's ratio and their median.
 *
 *   npm run bench:ycsb        (BENCH_RECORDS=100000 BENCH_SECONDS=15 BENCH_CONNECTIONS=16 BENCH_THREADS=1 BENCH_ROUNDS=3 BENCH_HOST=127.0.88.1)
 *
 * Ours is the product's path: LoadGenerator with the default engine (auto:
 * the native worker when it is built, `npm run build:native`, else js worker
 * threads; STRATA_LOADGEN_ENGINE=js|native forces one); each round prints
 * which ran.
 *
 * YCSB has no warm-up phase: its figures include the JVM's first seconds,
 * so it runs a short unmeasured pass first and then BENCH_SECONDS measured;
 * ours warms up 2 s and measures BENCH_SECONDS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoadGenerator } from '@strata/bench/loadgen';
import { decodeHistogram, summarize } from '@strata/bench';
import { startBenchCluster } from '@strata/bench/testing';
import { loopbackAddress } from '../src/loopback';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HOST = process.env.BENCH_HOST ?? loopbackAddress('127.0.88.1');
const ENGINE = (process.env.STRATA_LOADGEN_ENGINE ?? 'auto') as 'auto' | 'native' | 'js';
const YCSB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ycsb');

function buildBinding(): string {
  const jar = path.join(YCSB_DIR, 'target', 'ycsb-strata-binding-0.1.0.jar');
  if (!existsSync(jar)) {
    console.log('building the YCSB binding (mvn package: site.ycsb:core 0.17.0, jedis)...');
    execFileSync('mvn', ['-q', '-f', path.join(YCSB_DIR, 'pom.xml'), 'package', '-DskipTests'], { stdio: 'inherit' });
  }
  const lib = path.join(YCSB_DIR, 'target', 'lib');
  return [jar, ...readdirSync(lib).map((f) => path.join(lib, f))].join(path.delimiter);
}

const MIX = { 'ycsb-c': { read: 1, update: 0 }, 'ycsb-a': { read: 0.5, update: 0.5 } } as const;

interface Figures {
  opsPerSec: number;
  p95: Record<string, number>;
}

function runYcsb(classpath: string, workload: keyof typeof MIX, seeds: string[], auth: { username: string; password: string }, seconds: number): Figures {
  const m = MIX[workload];
  const props = {
    workload: 'site.ycsb.workloads.CoreWorkload', recordcount: RECORDS, operationcount: 1_000_000_000, maxexecutiontime: seconds,
    readproportion: m.read, updateproportion: m.update, insertproportion: 0, scanproportion: 0, readmodifywriteproportion: 0,
    requestdistribution: 'zipfian', fieldcount: 10, fieldlength: 100, readallfields: true, writeallfields: false,
    measurementtype: 'hdrhistogram', 'redis.seeds': seeds.join(','), 'redis.user': auth.username, 'redis.password': auth.password,
  };
  const args = ['-cp', classpath, 'site.ycsb.Client', '-t', '-db', 'strata.ycsb.RedisClusterClient', '-threads', String(CONNECTIONS), ...Object.entries(props).flatMap(([k, v]) => ['-p', `${k}=${v}`])];
  const out = execFileSync('java', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  const get = (section: string, metric: string) => {
    const line = out.split('\n').find((l) => l.startsWith(`[${section}], ${metric},`));
    return line ? Number(line.split(',')[2]) : NaN;
  };
  const failed = out.split('\n').filter((l) => /-FAILED\], Operations,/.test(l) || /\], Return=(ERROR|NOT_FOUND)/.test(l));
  if (failed.length) console.log(`  ycsb: ${failed.join(' | ')}`);
  return { opsPerSec: get('OVERALL', 'Throughput(ops/sec)'), p95: Object.fromEntries(['READ', 'UPDATE'].map((s) => [s.toLowerCase(), get(s, '95thPercentileLatency(us)')]).filter(([, v]) => !Number.isNaN(v))) };
}

async function runOurs(workload: keyof typeof MIX, seeds: string[], auth: { username: string; password: string }): Promise<Figures & { cpu: number; engine: string }> {
  const g = await LoadGenerator.start({
    threads: THREADS, connections: CONNECTIONS, pipeline: 1, seeds, auth, workload, recordCount: RECORDS, seed: 7, valueSize: 100, ratio: '1:1', keyPattern: 'uniform', engine: ENGINE,
  });
  try {
    const s = await g.run({ startAtMs: Date.now() + 200, warmupSec: 2, durationSec: SECONDS });
    if (s.ops.some((o) => o.errors > 0 || o.misses > 0)) console.log('  ours: errors or misses!', s.firstError);
    const total = s.ops.reduce((a, o) => a + o.count, 0);
    return {
      opsPerSec: total / ((s.steadyEndMs - s.steadyStartMs) / 1000),
      p95: Object.fromEntries(s.ops.map((o) => [o.op, summarize(decodeHistogram(o.service)).p95])),
      cpu: s.maxElu,
      engine: s.engine === 'native' ? 'native worker' : `js worker threads${s.engineNote ? ` (${s.engineNote})` : ''}`,
    };
  } finally {
    await g.close();
  }
}

const classpath = buildBinding();
const cluster = await startBenchCluster(HOST, 3, 7330, 1024);
console.log(`3 primaries on ${HOST}:7330-7332, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`${RECORDS.toLocaleString('en')} records, ${CONNECTIONS} concurrent clients (our connections, YCSB's threads), closed loop, ${SECONDS} s measured; ours: ${THREADS} worker thread(s)\n`);
try {
  const loader = await LoadGenerator.start({ threads: 2, connections: 32, pipeline: 16, seeds: cluster.seeds, auth: cluster.customer, workload: 'ycsb-c', recordCount: RECORDS, seed: 7, valueSize: 100, ratio: '1:1', keyPattern: 'uniform', engine: 'js' });
  const loaded = await loader.load(0, RECORDS);
  await loader.close();
  if (loaded.errors) throw new Error(`load failed: ${loaded.firstError}`);
  const us = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : `${(v / 1000).toFixed(2)} ms`);
  for (const workload of ['ycsb-c', 'ycsb-a'] as const) {
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const ours = await runOurs(workload, cluster.seeds, cluster.customer);
      runYcsb(classpath, workload, cluster.seeds, cluster.customer, 3); // JVM warm-up, not measured
      const ycsb = runYcsb(classpath, workload, cluster.seeds, cluster.customer, SECONDS);
      const ratio = ours.opsPerSec / ycsb.opsPerSec;
      ratios.push(ratio);
      const p95 = Object.keys(ycsb.p95).map((op) => `${op} p95 ours ${us(ours.p95[op])} vs YCSB ${us(ycsb.p95[op])}`).join(', ');
      console.log(`${workload} round ${round}: ours ${Math.round(ours.opsPerSec).toLocaleString('en')} ops/s (${ours.engine}, busiest worker ${Math.round(ours.cpu * 100)}% CPU)  YCSB 0.17 ${Math.round(ycsb.opsPerSec).toLocaleString('en')} ops/s  ratio ${ratio.toFixed(2)} (goal >= 1.5); ${p95}`);
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    console.log(`${workload}: median ratio ${median.toFixed(2)} of ${ratios.map((r) => r.toFixed(2)).join(', ')} (goal >= 1.5${median >= 1.5 ? ', met' : ', not met'})\n`);
  }
} finally {
  await cluster.stop();
}
