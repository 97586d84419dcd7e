/**
 * Scaling study: one workload across shard counts 1..MAX_SHARDS on one
 * cluster, resized online between runs (PATCH /v1/clusters/{id} {shards},
 * live slot migration; the records move with their slots, so they are
 * loaded once). Each run is a normal benchmark through the API, run by the
 * agents. Prints a table and writes JSON, CSV and an SVG chart (throughput
 * and p95 against shards, each shard's ops as dots) to OUT_DIR.
 *
 *   npm run bench:scaling     (WORKLOAD=ycsb-c MAX_SHARDS=4 RECORDS=100000 SECONDS=10 CONNECTIONS=32 OUT_DIR=bench-results FRESH=0)
 *
 * FRESH=1 creates a new cluster for each shard count instead (the issue's
 * fallback, and a control for effects of the resize itself).
 *
 * On one machine every "node" shares the same cores, so throughput flattens
 * early: the client CPU and validity columns say when the client or the
 * machine, not the cluster, is the limit.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Benchmark, BenchmarkRequestInput, Operation } from '@strata/api';
import { startStack } from '../src/stack';
import { toCsv, toSvg, type ScalingRow } from './scaling-report';

const WORKLOAD = (process.env.WORKLOAD ?? 'ycsb-c') as BenchmarkRequestInput['workload'];
const MAX_SHARDS = Number(process.env.MAX_SHARDS ?? 4);
const RECORDS = Number(process.env.RECORDS ?? 100_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const OUT_DIR = path.resolve(process.env.OUT_DIR ?? 'bench-results');
const PREFIX = process.env.BENCH_PREFIX ?? '127.0.87';
/** FRESH=1: a new cluster per shard count (loaded each time) instead of resizing one: the control for resize effects. */
const FRESH = process.env.FRESH === '1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-scaling-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, nodes: MAX_SHARDS, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: 'warn' } });
const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const json = (await res.json()) as T;
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
async function until<T>(what: string, get: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

console.log(`${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${WORKLOAD}, ${RECORDS.toLocaleString('en')} records, ${CONNECTIONS} connections, ${SECONDS} s per run, shards 1..${MAX_SHARDS}\n`);
const rows: ScalingRow[] = [];
try {
  const memoryMbPerShard = Math.max(256, Math.ceil((RECORDS * 1300 * 2) / 1024 / 1024 / 64) * 64);
  const create = async (shards: number) => {
    const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: `scaling-${shards}`, shards, replicasPerShard: 0, memoryMbPerShard });
    await until('the cluster', () => api<{ status: { phase: string } }>('GET', `/v1/clusters/${created.cluster.id}`), (c) => c.status.phase === 'ready');
    return created.cluster.id;
  };
  let id = await create(1);
  for (let shards = 1; shards <= MAX_SHARDS; shards++) {
    if (shards > 1 && FRESH) {
      await api('DELETE', `/v1/clusters/${id}`);
      await until('the old cluster to go', () => fetch(`${stack.url}/v1/clusters/${id}`, { headers: { authorization: `Bearer ${stack.adminToken}` } }).then((r) => r.status), (st) => st === 404);
      id = await create(shards);
    } else if (shards > 1) {
      const t0 = Date.now();
      const accepted = await api<{ operation: Operation }>('PATCH', `/v1/clusters/${id}`, { shards });
      const op = await until('the resize', () => api<Operation>('GET', `/v1/operations/${accepted.operation.id}`), (o) => ['succeeded', 'failed', 'cancelled'].includes(o.state));
      if (op.state !== 'succeeded') throw new Error(`resize to ${shards} shards ${op.state}`);
      await until('the cluster', () => api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`), (c) => c.status.phase === 'ready');
      console.log(`resized online to ${shards} shards in ${((Date.now() - t0) / 1000).toFixed(1)} s (${op.migration?.keysMoved?.toLocaleString('en') ?? '?'} keys moved)`);
    }
    const req: BenchmarkRequestInput = { workload: WORKLOAD, recordCount: RECORDS, durationSec: SECONDS, warmupSec: 2, connections: CONNECTIONS, load: shards === 1 || FRESH, seed: 42 };
    const started = await api<Benchmark>('POST', `/v1/clusters/${id}/benchmarks`, req);
    const b = await until('the benchmark', () => api<Benchmark>('GET', `/v1/benchmarks/${started.id}`), (x) => ['succeeded', 'failed', 'cancelled'].includes(x.state));
    if (b.state !== 'succeeded' || !b.result) throw new Error(`benchmark at ${shards} shards ${b.state}: ${b.error?.message}`);
    const r = b.result;
    const main = r.ops.find((o) => o.op === 'read' || o.op === 'get') ?? r.ops[0]!;
    const shardOps = r.shards.map((s) => s.clientOps / (r.steadySec || 1));
    const mean = shardOps.reduce((a, x) => a + x, 0) / (shardOps.length || 1);
    const row: ScalingRow = {
      shards, opsPerSec: r.opsPerSec, p95Us: main.service.p95, p99Us: main.service.p99, shardOpsPerSec: shardOps, skew: mean > 0 ? Math.max(...shardOps) / mean : 0,
      clientCpu: Math.max(0, ...r.workers.map((w) => w.cpu)), valid: r.validity.valid, reasons: r.validity.reasons.map((x) => `${x.gate}: ${x.message}`), benchmarkId: b.id,
    };
    rows.push(row);
    console.log(`${String(shards).padStart(2)} shards: ${Math.round(row.opsPerSec).toLocaleString('en').padStart(9)} ops/s  ${main.op} p95 ${(row.p95Us / 1000).toFixed(2)} ms  per shard ${shardOps.map((x) => Math.round(x).toLocaleString('en')).join(' / ')} (hottest ${row.skew.toFixed(2)}x mean)  client cpu ${Math.round(row.clientCpu * 100)}%  ${row.valid ? 'valid' : `INVALID: ${row.reasons.join('; ')}`}`);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const base = path.join(OUT_DIR, `scaling-${WORKLOAD}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const meta = { mode: FRESH ? 'cluster per size' : 'resized online', workload: WORKLOAD, records: RECORDS, seconds: SECONDS, connections: CONNECTIONS, cores: os.cpus().length, loadAverage: os.loadavg(), at: new Date().toISOString() };
  writeFileSync(`${base}.json`, JSON.stringify({ ...meta, rows }, null, 2));
  writeFileSync(`${base}.csv`, toCsv(rows));
  writeFileSync(`${base}.svg`, toSvg(rows, `${WORKLOAD}: throughput and p95 against shards (${RECORDS.toLocaleString('en')} records, ${CONNECTIONS} connections)`));
  console.log(`\nwrote ${base}.json, .csv and .svg`);
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
