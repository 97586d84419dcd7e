/**
 * Disk profile benchmark, in one run on one node:
 *  1. the same workload (random 4 KiB direct reads, pread, one thread) through Strata's profile API and
 *     through fio run by hand on the same volume, ROUNDS times in alternating order: IOPS side by side (goal:
 *     Strata within 5% of fio);
 *  2. the Redis profile's predicted aof-always ceiling (one client writing one at a time) against a real
 *     aof-always cluster on the node: redis-benchmark SET with one client, 100-byte values (goal: within
 *     30%), ROUNDS times in alternating order, each measurement about SECONDS long. Eight clients are printed too (they share fsyncs; not what the prediction is for).
 * Prints figures; asserts nothing.
 *
 *   npm run bench:io-profile          (SECONDS=10 ROUNDS=4 FILE_MB=256)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster, ClusterWithOperation, Connection, DiskProfile, NodeList, ProfileWorkloadInput } from '@strata/api';
import { startStack, type Stack } from '../src/stack';

const SECONDS = Number(process.env.SECONDS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const FILE_MB = Number(process.env.FILE_MB ?? 256);
const SET_COUNT = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call<T>(s: Stack, method: string, p: string, body?: unknown): Promise<T> {
  const send = () => fetch(s.url + p, { method, headers: { authorization: `Bearer ${s.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  // A kept-alive socket the server closed while redis-benchmark ran: one retry on a new one.
  const res = await send().catch(() => send());
  const json = (await res.json()) as T;
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function profile(s: Stack, nodeId: string, body: unknown): Promise<DiskProfile> {
  let id: string | undefined;
  for (let i = 0; !id; i++) {
    try {
      id = (await call<{ profile: DiskProfile }>(s, 'POST', `/v1/nodes/${nodeId}/profiles`, body)).profile.id;
    } catch (err) {
      // The node's free space is known from its first host samples (a second or two after start).
      if (i > 20) throw err;
      await sleep(500);
    }
  }
  for (;;) {
    const p = await call<DiskProfile>(s, 'GET', `/v1/profiles/${id}`);
    if (p.status !== 'running') {
      if (p.status !== 'completed') throw new Error(`profile ${p.status}: ${JSON.stringify(p.error)}`);
      return p;
    }
    await sleep(500);
  }
}

/** The same workload as fio options, run by hand (no Strata) in a file on the node's volume. */
function fioByHand(dir: string): number {
  const file = path.join(dir, 'by-hand.dat');
  try {
    const out = execFileSync('fio', [
      '--output-format=json', '--name=by-hand', `--filename=${file}`, `--size=${FILE_MB * 1024 * 1024}`, '--rw=randread', '--bs=4096',
      '--ioengine=psync', '--iodepth=1', '--numjobs=1', '--direct=1', `--runtime=${SECONDS}`, '--time_based',
    ], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return (JSON.parse(out.slice(out.indexOf('{'))) as { jobs: { read: { iops: number } }[] }).jobs[0]!.read.iops;
  } finally {
    rmSync(file, { force: true });
  }
}

function redisBenchmarkSet(conn: Connection, clients: number, count = SET_COUNT): number {
  const [host, port] = conn.seeds[0]!.split(':');
  const out = execFileSync('redis-benchmark', [
    '-h', host!, '-p', port!, '--user', conn.username, '-a', conn.password, '-t', 'set', '-c', String(clients), '-n', String(count), '-d', '100', '-r', '100000', '--csv',
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const line = out.split('\n').find((l) => l.startsWith('"SET"'));
  return Number(JSON.parse(`[${line}]`)[1]);
}

const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)}%`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-io-'));
  const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.46', port: 0, nodes: 1, fastPostgres: true });
  try {
    const nodeId = (await call<NodeList>(stack, 'GET', '/v1/nodes')).items[0]!.id;
    console.log(`# disk profile bench: ${os.cpus().length} cores, ${os.release()}, data volume of ${stack.agents[0]!.dir}`);

    // 1. Strata vs fio by hand, alternated.
    const workload: ProfileWorkloadInput = { name: 'random 4 KiB direct reads', blockSize: 4096, direct: true, ioCall: 'pread', fileSize: FILE_MB * 1024 * 1024, durationSec: SECONDS };
    const strata: number[] = [];
    const hand: number[] = [];
    // A B B A ...: the disk's speed drifts (other work on the machine); alternating the order cancels a trend.
    for (let r = 0; r < ROUNDS; r++) {
      const viaStrata = async () => {
        const p = await profile(stack, nodeId, { workloads: [workload] });
        if (r === 0) console.log(`facts: ${JSON.stringify(p.facts)}`);
        strata.push(p.results[0]!.iops);
      };
      const byHand = async () => void hand.push(fioByHand(stack.agents[0]!.dir));
      for (const step of r % 2 === 0 ? [viaStrata, byHand] : [byHand, viaStrata]) await step();
      console.log(`round ${r + 1} (${r % 2 === 0 ? 'Strata first' : 'fio first'}): Strata ${fmt(strata.at(-1)!)} IOPS, fio by hand ${fmt(hand.at(-1)!)} IOPS`);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`\n| workload | Strata IOPS | fio by hand IOPS | difference | goal |`);
    console.log(`| --- | ---: | ---: | ---: | --- |`);
    console.log(`| random 4 KiB direct reads, ${FILE_MB} MiB file, ${SECONDS} s x ${ROUNDS} | ${fmt(mean(strata))} | ${fmt(mean(hand))} | ${pct(mean(strata), mean(hand))} | within 5%: ${Math.abs(mean(strata) / mean(hand) - 1) <= 0.05 ? 'met' : 'NOT met'} |`);

    // 2. Predicted vs measured aof-always, alternated: the disk's fsync latency drifts with whatever else uses it.
    const created = await call<ClusterWithOperation>(stack, 'POST', '/v1/clusters', { name: 'aof-always-bench', shards: 1, replicasPerShard: 0, durability: 'aof-always' });
    const clusterId = created.cluster.id;
    for (;;) {
      const c = await call<Cluster>(stack, 'GET', `/v1/clusters/${clusterId}`);
      if (c.status.phase === 'ready') break;
      await sleep(300);
    }
    const conn = await call<Connection>(stack, 'GET', `/v1/clusters/${clusterId}/connection`);
    redisBenchmarkSet(conn, 1); // warm-up: connections, AOF file
    const predicted: number[] = [];
    const measured: number[] = [];
    console.log('');
    let detail = '';
    for (let r = 0; r < ROUNDS; r++) {
      const predict = async () => {
        const redis = await profile(stack, nodeId, { preset: 'redis', fileSize: 64 * 1024 * 1024, durationSec: SECONDS });
        const a = redis.results.find((x) => x.workload.name === 'aof-always append')!;
        predicted.push(redis.advice!.levels.find((l) => l.durability === 'aof-always')!.writesPerSec!);
        detail = `aof-always append ${fmt(a.iops)} IOPS, write ${a.write!.latency.mean} us + fdatasync mean ${a.sync!.latency.mean} us (p50 ${a.sync!.latency.p50}, p99 ${a.sync!.latency.p99})`;
      };
      // About SECONDS of writes at the rate last seen.
      const measure = async () => void measured.push(redisBenchmarkSet(conn, 1, Math.max(2000, Math.round((measured.at(-1) ?? predicted.at(-1) ?? 1000) * SECONDS))));
      for (const step of r % 2 === 0 ? [predict, measure] : [measure, predict]) await step();
      console.log(`round ${r + 1} (${r % 2 === 0 ? 'prediction first' : 'cluster first'}): ${detail} -> predicted ${fmt(predicted.at(-1)!)} writes/s; redis-benchmark -c 1: ${fmt(measured.at(-1)!)} SET/s`);
    }
    const eight = redisBenchmarkSet(conn, 8);
    console.log(`\n| aof-always, one client, SET 100 B | predicted | measured (redis-benchmark -c 1) | difference | goal |`);
    console.log(`| --- | ---: | ---: | ---: | --- |`);
    console.log(`| writes/s, mean of ${ROUNDS} | ${fmt(mean(predicted))} | ${fmt(mean(measured))} | ${pct(mean(predicted), mean(measured))} | within 30%: ${Math.abs(mean(predicted) / mean(measured) - 1) <= 0.3 ? 'met' : 'NOT met'} |`);
    console.log(`(8 clients sharing fsyncs: ${fmt(eight)} writes/s)`);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
