/**
 * The analytic query over 1,000,000 YCSB records on 3 primaries: records/s
 * (mean of 5 runs; goal 500k on a 2-core machine) and the longest time any
 * node was blocked, measured two ways: the longest batch seen by the client
 * (upper bound) and the servers' own slowest SCAN/HGET call (Redis's
 * LATENCY HISTOGRAM, power-of-two buckets) over the runs.
 *
 *   npm run bench:analytic            (BENCH_RECORDS=1000000 BENCH_THREADS=1: on 2 cores a second client thread takes CPU from the servers, which are the limit)
 */
import os from 'node:os';
import { Redis } from 'ioredis';
import { LoadGenerator } from '@strata/bench/loadgen';
import { startBenchCluster } from '@strata/bench/testing';
import { loopbackAddress } from '../src/loopback';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const RUNS = 5;

const HOST = process.env.BENCH_HOST ?? loopbackAddress('127.0.42.2');
const cluster = await startBenchCluster(HOST, 3, 7310, 1024);
const admins = cluster.seeds.map((e) => new Redis({ host: e.split(':')[0], port: Number(e.split(':')[1]), username: cluster.internal.username, password: cluster.internal.password }));

/** The highest non-empty LATENCY HISTOGRAM bucket (us) for the listing and hget, per node. */
async function slowestCallUs(): Promise<number> {
  let worst = 0;
  for (const a of admins) {
    const reply = (await a.call('LATENCY', 'HISTOGRAM', 'scan', 'hget', 'cluster|getkeysinslot')) as unknown[];
    for (let i = 0; i < reply.length; i += 2) {
      const body = reply[i + 1] as unknown[];
      const buckets = body[3] as unknown[];
      for (let j = 0; j < buckets.length; j += 2) worst = Math.max(worst, Number(buckets[j]));
    }
  }
  return worst;
}

console.log(`3 primaries on ${HOST}:7310-7312, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
try {
  const g = await LoadGenerator.start({
    threads: THREADS, connections: 48, pipeline: 32, seeds: cluster.seeds, auth: cluster.customer, workload: 'analytic',
    recordCount: RECORDS, seed: 1, valueSize: 100, ratio: '1:1', keyPattern: 'uniform',
  });
  try {
    const t0 = Date.now();
    const loaded = await g.load(0, RECORDS);
    console.log(`loaded ${loaded.inserted.toLocaleString('en')} records in ${((Date.now() - t0) / 1000).toFixed(1)} s (${loaded.errors} errors)`);
    for (const a of admins) await a.call('CONFIG', 'RESETSTAT');
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await g.analytic(g.primaries);
      runs.push(r);
      console.log(`run ${i + 1}: ${r.records.toLocaleString('en')} records, ${r.sentences.toLocaleString('en')} sentences, ${r.ms.toFixed(0)} ms, ${Math.round((r.records / r.ms) * 1000).toLocaleString('en')} records/s, longest client batch ${r.longestBatchMs.toFixed(1)} ms, errors ${r.errors}`);
    }
    const mean = runs.reduce((a, r) => a + r.ms, 0) / RUNS;
    const ok = runs.every((r) => r.records === RECORDS && r.errors === 0);
    const slowest = await slowestCallUs();
    console.log(`\nanalytic over ${RECORDS.toLocaleString('en')} records on 3 primaries (${THREADS} client threads): mean ${mean.toFixed(0)} ms -> ${Math.round((RECORDS / mean) * 1000).toLocaleString('en')} records/s (goal >= 500,000)`);
    console.log(`records visited == recordcount on every run: ${ok}`);
    console.log(`longest block of a node: server-side slowest GETKEYSINSLOT/SCAN/HGET call <= ${(slowest / 1000).toFixed(3)} ms (LATENCY HISTOGRAM bucket); client-side longest batch ${Math.max(...runs.map((r) => r.longestBatchMs)).toFixed(1)} ms (upper bound, includes queueing)`);
  } finally {
    await g.close();
  }
} finally {
  for (const a of admins) a.disconnect();
  await cluster.stop();
}
